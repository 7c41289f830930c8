import { channelCreated, deciderSpec, directMessageSent, messageSent } from '@app/testing';
import {
  BadSettingValueError,
  CHANNEL_RETENTION_SPECIAL_VALUES,
  channelsDecider,
  type ChannelsCommand,
  effectiveRetentionDays,
  type ExpireMessage,
  type MessageDeleted,
  messageDecider,
  MustBeOwnerError,
  parseMessageRetentionDays,
  realmDecider,
  type RealmSettingsCommand,
  REALM_RETENTION_SPECIAL_VALUES,
  retentionCutoff,
  type Role,
  type Viewer,
} from '@app/domain';

const NOW = '2026-04-01T12:00:00.000Z';

describe('message retention rules (zerver/lib/retention.py)', () => {
  it('parses days, and the special names of each map (parse_message_retention_days)', () => {
    expect(parseMessageRetentionDays(30, REALM_RETENTION_SPECIAL_VALUES)).toBe(30);
    expect(parseMessageRetentionDays('unlimited', REALM_RETENTION_SPECIAL_VALUES)).toBe(-1);
    expect(parseMessageRetentionDays('unlimited', CHANNEL_RETENTION_SPECIAL_VALUES)).toBe(-1);
    expect(parseMessageRetentionDays('realm_default', CHANNEL_RETENTION_SPECIAL_VALUES)).toBeNull();
  });

  it.each([0, -1, -5, 1.5, 'forever', 'Unlimited', '30'])('refuses %j: "Bad value for \'message_retention_days\'"', (value) =>
    expect(() => parseMessageRetentionDays(value, CHANNEL_RETENTION_SPECIAL_VALUES)).toThrow(new BadSettingValueError('message_retention_days', value)));

  it('"realm_default" is a channel value only', () =>
    expect(() => parseMessageRetentionDays('realm_default', REALM_RETENTION_SPECIAL_VALUES)).toThrow("Bad value for 'message_retention_days': realm_default"));

  it('a channel keeps its own value, else the organization\'s; -1 is forever (null)', () => {
    expect(effectiveRetentionDays(7, 30)).toBe(7);
    expect(effectiveRetentionDays(null, 30)).toBe(30);
    expect(effectiveRetentionDays(undefined, 30)).toBe(30);
    expect(effectiveRetentionDays(-1, 30)).toBeNull();
    expect(effectiveRetentionDays(null, -1)).toBeNull();
    expect(effectiveRetentionDays(7, -1)).toBe(7);
  });

  it('a message is expired when sent before now minus the days', () =>
    expect(retentionCutoff(new Date(NOW), 2)).toBe(Date.parse(NOW) / 1000 - 2 * 86_400));
});

describe('realm decider: message_retention_days (update_realm)', () => {
  const given = deciderSpec(realmDecider);
  const change = (value: number | string, actorRole: Role | 'operator' = 'owner'): RealmSettingsCommand => ({
    type: 'ChangeRealmSettings',
    data: { realmId: 1, actorId: 2, actorRole, now: NOW, registered: { name: 'Acme', description: '' }, messaging: { message_retention_days: value } },
  });
  const changed = (oldValue: number, newValue: number) => ({
    type: 'RealmPropertyChanged' as const,
    data: { realmId: 1, property: 'message_retention_days' as const, oldValue, newValue, actorId: 2, at: NOW },
  });

  it('records days and "unlimited" (-1) from Zulip\'s default of forever, and nothing when unchanged', () => {
    given([]).when(change(30)).then([changed(-1, 30)]);
    given([changed(-1, 30)]).when(change('unlimited')).then([changed(30, -1)]);
    given([]).when(change('unlimited')).thenNothingHappened();
    given([changed(-1, 30)]).when(change(30)).thenNothingHappened();
  });

  it('is for owners (and the operator) only, whatever the value, before the value is read', () => {
    for (const role of ['administrator', 'moderator', 'member', 'guest'] as const) {
      given([]).when(change(30, role)).thenThrows(MustBeOwnerError, 'Must be an organization owner');
      given([]).when(change('bad', role)).thenThrows(MustBeOwnerError);
    }
    given([]).when(change(30, 'operator')).then([changed(-1, 30)]);
  });

  it.each([0, -1, 'forever', 'realm_default'])('refuses %j', (value) =>
    given([]).when(change(value)).thenThrows(BadSettingValueError, `Bad value for 'message_retention_days': ${value}`));
});

describe('channels decider: message_retention_days (update_stream_backend, list_to_streams)', () => {
  const given = deciderSpec(channelsDecider);
  const owner: Viewer = { userId: 1, role: 'owner' };
  const iago: Viewer = { userId: 2, role: 'administrator' };
  const hamlet: Viewer = { userId: 10, role: 'member' };
  const general = channelCreated({ channelId: 1, creatorId: 10 });
  const update = (messageRetentionDays: number | string, actor: Viewer = owner): ChannelsCommand => ({
    type: 'UpdateChannel',
    data: { realmId: 1, actor, now: NOW, channelId: 1, isSubscribed: false, hasSubscribers: true, messageRetentionDays },
  });
  const changed = (oldValue: number | null, newValue: number | null, actorId = 1) => ({
    type: 'ChannelMessageRetentionDaysChanged' as const,
    data: { realmId: 1, channelId: 1, oldValue, newValue, actorId, at: NOW },
  });
  const create = (actor: Viewer, messageRetentionDays?: number | string): ChannelsCommand => ({
    type: 'CreateChannels',
    data: {
      realmId: 1, actor, now: NOW, messageRetentionDays,
      channels: [{ channelId: 5, name: 'rooms', description: '', renderedDescription: '', inviteOnly: false, historyPublicToSubscribers: null, isWebPublic: false }],
    },
  });

  it('sets days, "unlimited" (-1) and back to "realm_default" (null); an unchanged value records nothing', () => {
    given([general]).when(update(30)).then([changed(null, 30)]);
    given([general, changed(null, 30)]).when(update('unlimited')).then([changed(30, -1)]);
    given([general, changed(null, -1)]).when(update('realm_default')).then([changed(-1, null)]);
    given([general]).when(update('realm_default')).thenNothingHappened();
    given([general, changed(null, 30)]).when(update(30)).thenNothingHappened();
  });

  it('is for owners only, even administrators of the channel are refused', () => {
    given([general]).when(update(30, iago)).thenThrows(MustBeOwnerError, 'Must be an organization owner');
    given([general]).when(update('realm_default', iago)).thenThrows(MustBeOwnerError);
  });

  it.each([0, 'forever'])('refuses %j', (value) => given([general]).when(update(value)).thenThrows(BadSettingValueError, `Bad value for 'message_retention_days': ${value}`));

  it('creates a channel with its own retention for an owner; "realm_default" (or nothing) for anyone who may create', () => {
    given([]).when(create(owner, 7)).thenMatches([{ type: 'ChannelCreated', data: { channelId: 5, messageRetentionDays: 7 } }]);
    given([]).when(create(owner, 'unlimited')).thenMatches([{ type: 'ChannelCreated', data: { messageRetentionDays: -1 } }]);
    const plain = given([]).when(create(hamlet, 'realm_default')).events();
    expect(plain).toHaveLength(1);
    expect(plain[0].data).not.toHaveProperty('messageRetentionDays');
  });

  it('refuses a retention of its own to anyone but an owner, when a channel would be created', () => {
    given([]).when(create(iago, 7)).thenThrows(MustBeOwnerError);
    given([]).when(create(hamlet, 'unlimited')).thenThrows(MustBeOwnerError);
    // The channel exists already: nothing is created, nothing refused (Zulip checks only for new channels).
    given([channelCreated({ channelId: 5, name: 'rooms' })]).when(create(hamlet, 7)).thenNothingHappened();
  });

  it('keeps the value in the channel\'s state (what the next change compares with)', () => {
    const created = given([]).when(create(owner, 7)).events();
    given(created).when({ ...update(7), data: { ...update(7).data, channelId: 5 } } as ChannelsCommand).thenNothingHappened();
  });
});

describe('message decider: ExpireMessage (archive_messages)', () => {
  const given = deciderSpec(messageDecider);
  const SENT_S = Date.parse('2026-01-01T00:00:00.000Z') / 1000;
  const expire = (cutoff: number, location: ExpireMessage['data']['location'] = { streamId: 5, topic: 'greetings' }): ExpireMessage => ({
    type: 'ExpireMessage',
    data: { messageId: 100, now: NOW, cutoff, location },
  });
  const deleted = (overrides: Partial<MessageDeleted['data']> = {}): MessageDeleted => ({
    type: 'MessageDeleted',
    data: { realmId: 1, messageId: 100, senderId: 10, messageType: 'stream', streamId: 5, topic: 'greetings', actorId: null, at: NOW, reason: 'retention', ...overrides },
  });

  it('deletes a message sent before the cutoff, with no actor, marked as the retention job\'s', () =>
    given([messageSent()]).when(expire(SENT_S + 1)).then([deleted()]));

  it('records where the message is now (the index\'s location), and a direct message has none', () => {
    given([messageSent()]).when(expire(SENT_S + 1, { streamId: 6, topic: 'moved' })).then([deleted({ streamId: 6, topic: 'moved' })]);
    given([directMessageSent(100, 10, [10, 11])]).when(expire(SENT_S + 1, null)).then([deleted({ messageType: 'private', streamId: null, topic: null })]);
  });

  it('keeps a message sent at or after the cutoff (its id said older than it is)', () =>
    given([messageSent()]).when(expire(SENT_S)).thenNothingHappened());

  it('does nothing for a message already deleted, or never sent', () => {
    given([messageSent(), deleted({ actorId: 10, reason: undefined })]).when(expire(SENT_S + 1)).thenNothingHappened();
    given([]).when(expire(SENT_S + 1)).thenNothingHappened();
  });
});
