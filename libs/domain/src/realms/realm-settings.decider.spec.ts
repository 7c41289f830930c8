import { deciderSpec } from '@app/testing';
import {
  InvalidRealmNameError,
  realmDecider,
  type RealmSettingsCommand,
  type RealmSettingsEvent,
  RealmSettingTooLongError,
  realmStream,
  InvalidChannelIdError,
  ModerationRequestChannelNotPrivateError,
} from '@app/domain';

const given = deciderSpec(realmDecider);
const NOW = '2026-04-01T12:00:00.000Z';
const registered = { name: 'Acme', description: 'Where things get made' };

const change = (settings: { name?: string; description?: string }, reg = registered): RealmSettingsCommand => ({
  type: 'ChangeRealmSettings',
  data: { realmId: 1, actorId: 1, actorRole: 'administrator', now: NOW, registered: reg, ...settings },
});
const changed = (property: 'name' | 'description', oldValue: string, newValue: string): RealmSettingsEvent => ({
  type: 'RealmPropertyChanged',
  data: { realmId: 1, property, oldValue, newValue, actorId: 1, at: NOW },
});
const deactivate: RealmSettingsCommand = { type: 'DeactivateRealm', data: { realmId: 1, actorId: 1, now: NOW } };
const reactivate: RealmSettingsCommand = { type: 'ReactivateRealm', data: { realmId: 1, actorId: null, now: NOW } };
const realmDeactivated: RealmSettingsEvent = { type: 'RealmDeactivated', data: { realmId: 1, reason: 'owner_request', actorId: 1, at: NOW } };

describe('realm decider (organization settings on realm-<realmId>)', () => {
  it('lives on the organization\'s own stream', () => expect(realmStream(7)).toBe('realm-7'));

  describe('ChangeRealmSettings (PATCH /realm)', () => {
    it('renames the organization, from the registered name', () =>
      given([]).when(change({ name: 'Acme Corp' })).then([changed('name', 'Acme', 'Acme Corp')]));

    it('changes name and description in one command, one event each', () =>
      given([]).when(change({ name: 'Acme Corp', description: 'New' })).then([
        changed('name', 'Acme', 'Acme Corp'),
        changed('description', 'Where things get made', 'New'),
      ]));

    it('sets only what differs (Zulip\'s update_realm)', () => {
      given([]).when(change({ name: 'Acme', description: 'Where things get made' })).thenNothingHappened();
      given([]).when(change({})).thenNothingHappened();
    });

    it('once the stream has a value, it is the old value (a stale registration does not matter)', () =>
      given([changed('name', 'Acme', 'Acme Corp')]).when(change({ name: 'Acme Inc' })).then([changed('name', 'Acme Corp', 'Acme Inc')]));

    it('trims the name; an empty name is refused', () => {
      given([]).when(change({ name: '  Acme Corp ' })).then([changed('name', 'Acme', 'Acme Corp')]);
      given([]).when(change({ name: '   ' })).thenThrows(InvalidRealmNameError, "Organization name can't be empty.");
    });

    it('caps the name at 40 and the description at 1000 characters, with Zulip\'s messages', () => {
      given([]).when(change({ name: 'x'.repeat(40) })).thenMatches([{ data: { newValue: 'x'.repeat(40) } }]);
      given([]).when(change({ name: 'x'.repeat(41) })).thenThrows(RealmSettingTooLongError, 'name is too long (limit: 40 characters)');
      given([]).when(change({ description: 'd'.repeat(1001) }))
        .thenThrows(RealmSettingTooLongError, 'description is too long (limit: 1000 characters)');
    });

    it('allows an empty description', () =>
      given([]).when(change({ description: '' })).then([changed('description', 'Where things get made', '')]));
  });

  describe('moderation_request_channel_id (do_set_realm_moderation_request_channel)', () => {
    const setChannel = (requestedId: number, channel: { inviteOnly: boolean } | null): RealmSettingsCommand => ({
      type: 'ChangeRealmSettings',
      data: { realmId: 1, actorId: 1, actorRole: 'administrator', now: NOW, registered, moderationRequestChannel: { requestedId, channel } },
    });
    const channelChanged = (oldValue: number, newValue: number): RealmSettingsEvent => ({
      type: 'RealmPropertyChanged',
      data: { realmId: 1, property: 'moderation_request_channel_id', oldValue, newValue, actorId: 1, at: NOW },
    });

    it('given reporting disabled, when a private channel is chosen, then it is recorded', () =>
      given([]).when(setChannel(20, { inviteOnly: true })).then([channelChanged(-1, 20)]));

    it('given a channel, when -1 (or any negative id) is sent, then reporting is disabled (-1)', () => {
      given([channelChanged(-1, 20)]).when(setChannel(-1, null)).then([channelChanged(20, -1)]);
      given([channelChanged(-1, 20)]).when(setChannel(-7, null)).then([channelChanged(20, -1)]);
    });

    it('when the value does not change, then nothing happens', () => {
      given([]).when(setChannel(-1, null)).thenNothingHappened();
      given([channelChanged(-1, 20)]).when(setChannel(20, { inviteOnly: true })).thenNothingHappened();
    });

    it('when the channel does not exist, then "Invalid channel ID"', () =>
      given([]).when(setChannel(99, null)).thenThrows(InvalidChannelIdError, 'Invalid channel ID'));

    it('when the channel is public, then "Moderation request channel must be private."', () =>
      given([]).when(setChannel(21, { inviteOnly: false })).thenThrows(ModerationRequestChannelNotPrivateError, 'Moderation request channel must be private.'));
  });

  describe('DeactivateRealm and ReactivateRealm', () => {
    it('deactivates the organization at the owner\'s request', () => given([]).when(deactivate).then([realmDeactivated]));

    it('records another reason when given', () =>
      given([]).when({ type: 'DeactivateRealm', data: { realmId: 1, actorId: null, now: NOW, reason: 'tos_violation' } })
        .thenMatches([{ type: 'RealmDeactivated', data: { reason: 'tos_violation', actorId: null } }]));

    it('deactivating twice is a no-op (do_deactivate_realm returns early)', () => given([realmDeactivated]).when(deactivate).thenNothingHappened());

    it('reactivates a deactivated organization; an active one is left alone', () => {
      given([realmDeactivated]).when(reactivate).then([{ type: 'RealmReactivated', data: { realmId: 1, actorId: null, at: NOW } }]);
      given([]).when(reactivate).thenNothingHappened();
      given([realmDeactivated, { type: 'RealmReactivated', data: { realmId: 1, actorId: null, at: NOW } }]).when(reactivate).thenNothingHappened();
    });
  });
});
