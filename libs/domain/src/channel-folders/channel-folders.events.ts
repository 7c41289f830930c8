/** AuditLogEventType.CHANNEL_FOLDER_CREATED (check_add_channel_folder). */
export type ChannelFolderCreated = {
  type: 'ChannelFolderCreated';
  data: {
    realmId: number;
    folderId: number;
    name: string;
    description: string;
    /** HTML of the description, rendered when it was written. */
    renderedDescription: string;
    /** Zulip starts a folder's order at its id. */
    order: number;
    creatorId: number | null;
    actorId: number | null;
    at: string;
  };
};

/** AuditLogEventType.CHANNEL_FOLDER_NAME_CHANGED (do_change_channel_folder_name). */
export type ChannelFolderNameChanged = {
  type: 'ChannelFolderNameChanged';
  data: { realmId: number; folderId: number; oldName: string; newName: string; actorId: number | null; at: string };
};

/** AuditLogEventType.CHANNEL_FOLDER_DESCRIPTION_CHANGED (do_change_channel_folder_description). */
export type ChannelFolderDescriptionChanged = {
  type: 'ChannelFolderDescriptionChanged';
  data: {
    realmId: number;
    folderId: number;
    oldDescription: string;
    newDescription: string;
    renderedDescription: string;
    actorId: number | null;
    at: string;
  };
};

/** AuditLogEventType.CHANNEL_FOLDER_ARCHIVED (do_archive_channel_folder). */
export type ChannelFolderArchived = {
  type: 'ChannelFolderArchived';
  data: { realmId: number; folderId: number; actorId: number | null; at: string };
};

/** AuditLogEventType.CHANNEL_FOLDER_UNARCHIVED (do_unarchive_channel_folder). */
export type ChannelFolderUnarchived = {
  type: 'ChannelFolderUnarchived';
  data: { realmId: number; folderId: number; actorId: number | null; at: string };
};

/** try_reorder_realm_channel_folders: the requested order and the resulting position of every folder. */
export type ChannelFoldersReordered = {
  type: 'ChannelFoldersReordered';
  data: { realmId: number; order: number[]; positions: Record<number, number>; actorId: number | null; at: string };
};

export type ChannelFolderEvent =
  | ChannelFolderCreated
  | ChannelFolderNameChanged
  | ChannelFolderDescriptionChanged
  | ChannelFolderArchived
  | ChannelFolderUnarchived
  | ChannelFoldersReordered;

export const CHANNEL_FOLDER_EVENT_TYPES: readonly ChannelFolderEvent['type'][] = [
  'ChannelFolderCreated',
  'ChannelFolderNameChanged',
  'ChannelFolderDescriptionChanged',
  'ChannelFolderArchived',
  'ChannelFolderUnarchived',
  'ChannelFoldersReordered',
];
