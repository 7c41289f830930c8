import { codePointLength, pythonStrip, unprintablePosition } from '../shared/printable-text';
import { ChannelFolderTextTooLongError, InvalidChannelFolderNameError } from './channel-folders.errors';

/** zerver/models/channel_folders.py ChannelFolder.MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH (max_channel_folder_*_length). */
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

/** Case-insensitive identity of a folder name (Zulip's `name__iexact`); names are kept as given, not stripped. */
export const channelFolderNameKey = (name: string): string => name.toLowerCase();

/** check_channel_folder_name, without the uniqueness part: not blank, printable, within the limit. */
export function checkChannelFolderName(name: string): string {
  if (codePointLength(name) > MAX_CHANNEL_FOLDER_NAME_LENGTH) throw new ChannelFolderTextTooLongError('name', MAX_CHANNEL_FOLDER_NAME_LENGTH);
  if (pythonStrip(name) === '') throw InvalidChannelFolderNameError.empty();
  const position = unprintablePosition(name);
  if (position !== null) throw InvalidChannelFolderNameError.invalidCharacter(position);
  return name;
}

export function checkChannelFolderDescription(description: string): string {
  if (codePointLength(description) > MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH) {
    throw new ChannelFolderTextTooLongError('description', MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH);
  }
  return description;
}
