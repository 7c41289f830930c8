import { channelCreated, channelDeactivated, deciderSpec } from '@app/testing';
import { CannotAdministerChannelError, channelsDecider, type ChannelsCommand, InvalidChannelFolderIdError, InvalidChannelIdError, type Viewer } from '@app/domain';

const given = deciderSpec(channelsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const iago: Viewer = { userId: 2, role: 'administrator' };
const cordelia: Viewer = { userId: 11, role: 'member' };

const move = (folderId: number | null, overrides: Partial<{ actor: Viewer; folderExists: boolean; channelId: number }> = {}): ChannelsCommand => ({
  type: 'ChangeChannelFolder',
  data: { realmId: 1, actor: overrides.actor ?? iago, now: AT, channelId: overrides.channelId ?? 1, isSubscribed: false, folderId, folderExists: overrides.folderExists ?? true },
});

describe('channelsDecider: ChangeChannelFolder (folder_id of PATCH /streams/{id})', () => {
  const general = channelCreated({ channelId: 1, creatorId: 10 });

  it('puts a channel in a folder, then takes it out', () => {
    given([general]).when(move(4)).then([
      { type: 'ChannelFolderChanged', data: { realmId: 1, channelId: 1, oldFolderId: null, newFolderId: 4, actorId: 2, at: AT } },
    ]);
    const inFolder = { type: 'ChannelFolderChanged' as const, data: { realmId: 1, channelId: 1, oldFolderId: null, newFolderId: 4, actorId: 2, at: AT } };
    given([general, inFolder]).when(move(null)).thenMatches([{ data: { oldFolderId: 4, newFolderId: null } }]);
    given([general, inFolder]).when(move(4)).thenNothingHappened();
  });

  it('answers "Invalid channel folder ID" for a folder the organization does not have', () =>
    given([general]).when(move(9, { folderExists: false })).thenThrows(InvalidChannelFolderIdError, 'Invalid channel folder ID'));

  it('checks the channel and the right to administer it first', () => {
    given([]).when(move(9, { folderExists: false })).thenThrows(InvalidChannelIdError);
    given([general]).when(move(9, { actor: cordelia, folderExists: false })).thenThrows(CannotAdministerChannelError);
  });

  it('also files archived channels', () => given([general, channelDeactivated(1)]).when(move(4)).thenMatches([{ type: 'ChannelFolderChanged' }]));
});
