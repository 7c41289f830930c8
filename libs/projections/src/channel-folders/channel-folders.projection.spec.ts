import { channelCreated, folderArchived, folderCreated, folderRenamed, foldersReordered, recorded, replay } from '@app/testing';
import { channelsProjection } from '../channels/channels.projection';
import { channelFoldersProjection } from './channel-folders.projection';

const after = (events: { type: string; data: object }[]) => replay(channelFoldersProjection, recorded(events, 'channel_folders-1'));

describe('channelFoldersProjection', () => {
  it('stores a folder in the shape of Zulip\'s ChannelFolderDict, keyed by its id', () => {
    const docs = after([folderCreated({ folderId: 3, name: 'Frontend', description: 'UI', renderedDescription: '<p>UI</p>', at: '2026-01-02T03:04:05.000Z' })]);
    expect(docs.get('3')).toEqual({
      id: 3, realm_id: 1, name: 'Frontend', description: 'UI', rendered_description: '<p>UI</p>', order: 3, date_created: 1767323045,
      creator_id: 2, is_archived: false,
    });
  });

  it('follows renames, descriptions, archiving and unarchiving', () => {
    const description = {
      type: 'ChannelFolderDescriptionChanged',
      data: { realmId: 1, folderId: 1, oldDescription: '', newDescription: 'New', renderedDescription: '<p>New</p>', actorId: 2, at: 'x' },
    };
    expect(after([folderCreated(), folderRenamed(1, 'Frontend', 'Web'), description, folderArchived(1)]).get('1')).toMatchObject({
      name: 'Web', description: 'New', rendered_description: '<p>New</p>', is_archived: true,
    });
    const unarchived = { type: 'ChannelFolderUnarchived', data: { realmId: 1, folderId: 1, actorId: 2, at: 'x' } };
    expect(after([folderCreated(), folderArchived(1), unarchived]).get('1')!.is_archived).toBe(false);
  });

  it('gives every folder its position on a reorder', () => {
    const docs = after([folderCreated({ folderId: 1, name: 'A' }), folderCreated({ folderId: 2, name: 'B' }), foldersReordered([2, 1])]);
    expect([docs.get('1')!.order, docs.get('2')!.order]).toEqual([1, 0]);
  });
});

describe('channelsProjection: folder_id', () => {
  it('files a channel in a folder and takes it out again', () => {
    const moved = (newFolderId: number | null) => ({ type: 'ChannelFolderChanged', data: { realmId: 1, channelId: 1, oldFolderId: null, newFolderId, actorId: 2, at: 'x' } });
    expect(replay(channelsProjection, recorded([channelCreated(), moved(4)])).get('1')!.folder_id).toBe(4);
    expect(replay(channelsProjection, recorded([channelCreated(), moved(4), moved(null)])).get('1')!.folder_id).toBeNull();
  });
});
