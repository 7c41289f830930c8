import { DomainError } from '../shared/domain-error';

/** zerver/lib/channel_folders.py check_channel_folder_name. */
export class InvalidChannelFolderNameError extends DomainError {
  static empty = () => new InvalidChannelFolderNameError("Channel folder name can't be empty.");
  static invalidCharacter = (position: number) =>
    new InvalidChannelFolderNameError(`Invalid character in channel folder name, at position ${position}.`);
}

/** check_channel_folder_name: another folder that is not archived has the name, ignoring case. */
export class ChannelFolderNameInUseError extends DomainError {
  constructor() {
    super('Channel folder name already in use');
  }
}

/** get_channel_folder_by_id. */
export class InvalidChannelFolderIdError extends DomainError {
  constructor() {
    super('Invalid channel folder ID');
  }
}

/** update_channel_folder: a folder is archived only once no channel (archived ones included) is in it. */
export class ChannelFolderInUseError extends DomainError {
  constructor() {
    super('You need to remove all the channels from this folder to archive it.');
  }
}

/** The typed_endpoint StringConstraints(max_length=…) of `name` and `description`, worded as Zulip words it. */
export class ChannelFolderTextTooLongError extends DomainError {
  constructor(parameter: 'name' | 'description', limit: number) {
    super(`${parameter} is too long (limit: ${limit} characters)`);
  }
}
