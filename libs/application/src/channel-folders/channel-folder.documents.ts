/**
 * A channel folder as Zulip's ChannelFolderDict describes it (zerver/lib/channel_folders.py
 * get_channel_folder_dict, with `order` since feature level 414), plus `realm_id`.
 */
export type ChannelFolderDocument = {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  order: number;
  /** Seconds since the epoch. */
  date_created: number;
  creator_id: number | null;
  is_archived: boolean;
};

export type ApiChannelFolder = Omit<ChannelFolderDocument, 'realm_id'>;

export const CHANNEL_FOLDERS = 'channel_folders';
