import { deciderSpec, folderArchived, folderCreated, folderRenamed } from '@app/testing';
import {
  type Actor,
  ChannelFolderInUseError,
  ChannelFolderNameInUseError,
  ChannelFolderTextTooLongError,
  channelFoldersDecider,
  type ChannelFoldersCommand,
  InvalidChannelFolderIdError,
  InvalidChannelFolderNameError,
  InvalidOrderMappingError,
  MustBeAdministratorError,
  type UpdateChannelFolder,
} from '@app/domain';

const given = deciderSpec(channelFoldersDecider);
const AT = '2026-01-01T00:00:00.000Z';
const iago: Actor = { realmId: 1, userId: 2, role: 'administrator', isBot: false };
const hamlet: Actor = { realmId: 1, userId: 10, role: 'member', isBot: false };

const create = (name: string, overrides: Partial<{ folderId: number; description: string; actor: Actor }> = {}): ChannelFoldersCommand => ({
  type: 'CreateChannelFolder',
  data: { realmId: 1, actor: overrides.actor ?? iago, now: AT, folderId: overrides.folderId ?? 1, name, description: overrides.description ?? '', renderedDescription: '' },
});
const update = (patch: Partial<UpdateChannelFolder['data']>): ChannelFoldersCommand => ({
  type: 'UpdateChannelFolder', data: { realmId: 1, actor: iago, now: AT, folderId: 1, channelsInFolder: 0, ...patch },
});
const reorder = (order: number[]): ChannelFoldersCommand => ({ type: 'ReorderChannelFolders', data: { realmId: 1, actor: iago, now: AT, order } });

describe('channelFoldersDecider', () => {
  describe('CreateChannelFolder', () => {
    it('creates a folder whose order starts at its id, created by the actor', () =>
      given([]).when(create('Frontend', { folderId: 7, description: 'UI' })).then([
        { type: 'ChannelFolderCreated', data: { realmId: 1, folderId: 7, name: 'Frontend', description: 'UI', renderedDescription: '', order: 7, creatorId: 2, actorId: 2, at: AT } },
      ]));

    it('is for administrators only', () => given([]).when(create('Frontend', { actor: hamlet })).thenThrows(MustBeAdministratorError, 'Must be an organization administrator'));

    it('rejects an empty or blank name', () => {
      given([]).when(create('')).thenThrows(InvalidChannelFolderNameError, "Channel folder name can't be empty.");
      given([]).when(create('   ')).thenThrows(InvalidChannelFolderNameError, "Channel folder name can't be empty.");
    });

    it('rejects an unprintable character, naming its position', () =>
      given([]).when(create('abc\u0000')).thenThrows(InvalidChannelFolderNameError, 'Invalid character in channel folder name, at position 4.'));

    it('rejects a name over 60 characters and a description over 1024', () => {
      given([]).when(create('x'.repeat(60))).thenMatches([{ type: 'ChannelFolderCreated' }]);
      given([]).when(create('x'.repeat(61))).thenThrows(ChannelFolderTextTooLongError, 'name is too long (limit: 60 characters)');
      given([]).when(create('ok', { description: 'd'.repeat(1025) })).thenThrows(ChannelFolderTextTooLongError, 'description is too long (limit: 1024 characters)');
    });

    it('rejects a duplicate name, ignoring case', () => {
      given([folderCreated({ folderId: 1, name: 'Frontend' })]).when(create('frontEND', { folderId: 2 })).thenThrows(ChannelFolderNameInUseError, 'Channel folder name already in use');
    });

    it('accepts the name of an archived folder', () =>
      given([folderCreated({ folderId: 1, name: 'Frontend' }), folderArchived(1)]).when(create('Frontend', { folderId: 2 })).thenMatches([{ type: 'ChannelFolderCreated' }]));
  });

  describe('UpdateChannelFolder', () => {
    const frontend = folderCreated({ folderId: 1, name: 'Frontend', description: 'UI' });
    const backend = folderCreated({ folderId: 2, name: 'Backend' });

    it('answers "Invalid channel folder ID" for a folder that does not exist', () =>
      given([]).when(update({ name: 'x' })).thenThrows(InvalidChannelFolderIdError, 'Invalid channel folder ID'));

    it('renames, describes and archives in one go, old and new values in the events', () =>
      given([frontend]).when(update({ name: 'Web', description: { text: 'Web UI', rendered: '<p>Web UI</p>' }, isArchived: true })).thenMatches([
        { type: 'ChannelFolderNameChanged', data: { folderId: 1, oldName: 'Frontend', newName: 'Web' } },
        { type: 'ChannelFolderDescriptionChanged', data: { oldDescription: 'UI', newDescription: 'Web UI', renderedDescription: '<p>Web UI</p>' } },
        { type: 'ChannelFolderArchived', data: { folderId: 1 } },
      ]));

    it('changes nothing when the values are the current ones', () =>
      given([frontend]).when(update({ name: 'Frontend', description: { text: 'UI', rendered: '' }, isArchived: false })).thenNothingHappened());

    it('refuses a name another active folder has, ignoring case, but allows changing the case of its own', () => {
      given([frontend, backend]).when(update({ name: 'backEND' })).thenThrows(ChannelFolderNameInUseError);
      given([frontend, backend]).when(update({ name: 'FRONTEND' })).thenMatches([{ type: 'ChannelFolderNameChanged' }]);
    });

    it('refuses an empty name', () => given([frontend]).when(update({ name: '' })).thenThrows(InvalidChannelFolderNameError, "Channel folder name can't be empty."));

    it('refuses to archive a folder that still holds channels', () =>
      given([frontend]).when(update({ isArchived: true, channelsInFolder: 1 })).thenThrows(
        ChannelFolderInUseError,
        'You need to remove all the channels from this folder to archive it.',
      ));

    it('checks everything before changing anything', () =>
      given([frontend]).when(update({ name: 'Web', isArchived: true, channelsInFolder: 2 })).thenThrows(ChannelFolderInUseError));

    it('unarchives, unless an active folder took the name meanwhile', () => {
      given([frontend, folderArchived(1)]).when(update({ isArchived: false })).thenMatches([{ type: 'ChannelFolderUnarchived' }]);
      given([frontend, folderArchived(1), folderCreated({ folderId: 2, name: 'frontend' })]).when(update({ isArchived: false })).thenThrows(ChannelFolderNameInUseError);
    });

    it('follows renames', () => given([frontend, backend, folderRenamed(2, 'Backend', 'Server')]).when(update({ name: 'Backend' })).thenMatches([{ type: 'ChannelFolderNameChanged' }]));
  });

  describe('ReorderChannelFolders', () => {
    const folders = [folderCreated({ folderId: 1, name: 'A' }), folderCreated({ folderId: 2, name: 'B' }), folderCreated({ folderId: 3, name: 'C' })];

    it('gives each folder the position of its id', () =>
      given(folders).when(reorder([3, 1, 2])).thenMatches([{ type: 'ChannelFoldersReordered', data: { order: [3, 1, 2], positions: { 1: 1, 2: 2, 3: 0 } } }]));

    it('needs every folder, archived ones included', () => {
      given(folders).when(reorder([1, 2])).thenThrows(InvalidOrderMappingError, 'Invalid order mapping.');
      given([...folders, folderArchived(3)]).when(reorder([1, 2])).thenThrows(InvalidOrderMappingError);
      given(folders).when(reorder([100, 200, 300])).thenThrows(InvalidOrderMappingError);
    });

    it('ignores ids of no folder', () => given(folders).when(reorder([2, 99, 1, 3])).thenMatches([{ data: { positions: { 1: 2, 2: 0, 3: 3 } } }]));

    it('is for administrators only', () =>
      given(folders).when({ type: 'ReorderChannelFolders', data: { realmId: 1, actor: hamlet, now: AT, order: [1, 2, 3] } }).thenThrows(MustBeAdministratorError));
  });
});
