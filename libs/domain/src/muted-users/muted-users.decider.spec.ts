import { deciderSpec, userMuted, userUnmuted } from '@app/testing';
import { CannotMuteSelfError, NoSuchUserError, UserAlreadyMutedError, UserNotMutedError, mutedUsersDecider, type MutedUsersCommand } from '@app/domain';

const given = deciderSpec(mutedUsersDecider);
const NOW = '2026-02-03T04:05:06.000Z';

const mute = (mutedUserId: number, targetExists = true): MutedUsersCommand => ({ type: 'MuteUser', data: { userId: 10, now: NOW, mutedUserId, targetExists } });
const unmute = (mutedUserId: number, targetExists = true): MutedUsersCommand => ({ type: 'UnmuteUser', data: { userId: 10, now: NOW, mutedUserId, targetExists } });

describe('mutedUsersDecider', () => {
  describe('MuteUser', () => {
    it('mutes a user (bots and deactivated accounts too: the handler only asks whether the account exists)', () =>
      given([]).when(mute(11)).then([{ type: 'UserMuted', data: { userId: 10, mutedUserId: 11, at: NOW } }]));

    it('refuses to mute oneself before looking the target up', () => given([]).when(mute(10, false)).thenThrows(CannotMuteSelfError, 'Cannot mute self'));

    it('answers "No such user" for an id that is not an account', () => given([]).when(mute(99, false)).thenThrows(NoSuchUserError, 'No such user'));

    it('refuses to mute twice', () => given([userMuted(11)]).when(mute(11)).thenThrows(UserAlreadyMutedError, 'User already muted'));

    it('mutes again after an unmute', () => expect(given([userMuted(11), userUnmuted(11)]).when(mute(11)).events()).toHaveLength(1));
  });

  describe('UnmuteUser', () => {
    it('unmutes a muted user', () => given([userMuted(11)]).when(unmute(11)).then([{ type: 'UserUnmuted', data: { userId: 10, mutedUserId: 11, at: NOW } }]));

    it('answers "No such user" first, then "User is not muted"', () => {
      given([]).when(unmute(99, false)).thenThrows(NoSuchUserError, 'No such user');
      given([]).when(unmute(11)).thenThrows(UserNotMutedError, 'User is not muted');
      given([userMuted(11), userUnmuted(11)]).when(unmute(11)).thenThrows(UserNotMutedError);
      given([]).when(unmute(10)).thenThrows(UserNotMutedError);
    });
  });
});
