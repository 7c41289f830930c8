import type { ChannelFolderArchived, ChannelFolderCreated, ChannelFolderNameChanged, ChannelFoldersReordered } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** A folder "Frontend" (id 1, order 1) created by user 2 in realm 1, unless overridden. */
export const folderCreated = (overrides: Partial<ChannelFolderCreated['data']> = {}): ChannelFolderCreated => {
  const folderId = overrides.folderId ?? 1;
  return {
    type: 'ChannelFolderCreated',
    data: {
      realmId: 1, folderId, name: 'Frontend', description: '', renderedDescription: '', order: folderId, creatorId: 2, actorId: 2, at: AT,
      ...overrides,
    },
  };
};

export const folderRenamed = (folderId: number, oldName: string, newName: string): ChannelFolderNameChanged => ({
  type: 'ChannelFolderNameChanged', data: { realmId: 1, folderId, oldName, newName, actorId: 2, at: AT },
});

export const folderArchived = (folderId = 1): ChannelFolderArchived => ({
  type: 'ChannelFolderArchived', data: { realmId: 1, folderId, actorId: 2, at: AT },
});

export const foldersReordered = (order: number[]): ChannelFoldersReordered => ({
  type: 'ChannelFoldersReordered',
  data: { realmId: 1, order, positions: Object.fromEntries(order.map((id, i) => [id, i])), actorId: 2, at: AT },
});
