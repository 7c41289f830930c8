import {
  channelCreated,
  channelDeactivated,
  channelDescriptionChanged,
  channelNameChanged,
  channelPermissionChanged,
  channelReactivated,
  defaultChannelAdded,
  defaultChannelRemoved,
  privateChannelCreated,
  recorded,
  replay,
  subscriptionsCreated,
  subscriptionsDeactivated,
  subscriptionsReactivated,
} from '@app/testing';
import { defaultChannelGroupSettings } from '@app/domain';
import { channelsProjection } from './channels.projection';

const after = (events: { type: string; data: object }[]) => replay(channelsProjection, recorded(events, 'channels-1'));

describe('channelsProjection', () => {
  it('stores a new channel in the shape of Zulip\'s stream object, keyed by its id', () => {
    const docs = after([channelCreated({ channelId: 7, name: 'Design', description: 'Pixels', renderedDescription: '<p>Pixels</p>', at: '2026-01-02T03:04:05.000Z' })]);
    expect([...docs.keys()]).toEqual(['7']);
    expect(docs.get('7')).toEqual({
      stream_id: 7,
      realm_id: 1,
      name: 'Design',
      name_key: 'design',
      description: 'Pixels',
      rendered_description: '<p>Pixels</p>',
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      date_created: 1767323045,
      creator_id: 10,
      is_archived: false,
      subscriber_count: 0,
      group_settings: defaultChannelGroupSettings(10),
    });
  });

  it('gives the creator the administration of the channel, and nobody when there is no creator', () => {
    expect(after([channelCreated({ creatorId: null })]).get('1')!.group_settings.can_administer_channel_group).toEqual({ system: 'role:nobody' });
    expect(after([channelCreated({ creatorId: 10 })]).get('1')!.group_settings.can_administer_channel_group).toEqual({ direct_members: [10], direct_subgroups: [] });
  });

  it('keeps a channel\'s own message_retention_days from its creation and its changes (null: the organization\'s again)', () => {
    const changed = (oldValue: number | null, newValue: number | null) =>
      ({ type: 'ChannelMessageRetentionDaysChanged', data: { realmId: 1, channelId: 1, oldValue, newValue, actorId: 1, at: '2026-01-02T00:00:00.000Z' } });
    expect(after([channelCreated()]).get('1')).not.toHaveProperty('message_retention_days');
    expect(after([channelCreated({ messageRetentionDays: 7 })]).get('1')!.message_retention_days).toBe(7);
    expect(after([channelCreated({ messageRetentionDays: 7 }), changed(7, -1)]).get('1')!.message_retention_days).toBe(-1);
    expect(after([channelCreated({ messageRetentionDays: 7 }), changed(7, -1), changed(-1, null)]).get('1')!.message_retention_days).toBeNull();
  });

  it('follows renames, descriptions and privacy', () => {
    const doc = after([
      channelCreated(),
      channelNameChanged(1, 'general', 'Lobby'),
      channelDescriptionChanged(1, '', 'Hello', '<p>Hello</p>'),
      channelPermissionChanged(1, { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false }, { inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false }),
    ]).get('1');
    expect(doc).toMatchObject({
      name: 'Lobby', name_key: 'lobby', description: 'Hello', rendered_description: '<p>Hello</p>', invite_only: true, history_public_to_subscribers: false,
    });
  });

  it('archives and unarchives', () => {
    expect(after([channelCreated(), channelDeactivated(1)]).get('1')!.is_archived).toBe(true);
    expect(after([channelCreated(), channelDeactivated(1), channelReactivated(1)]).get('1')!.is_archived).toBe(false);
  });

  it('counts active subscriptions', () => {
    const doc = after([
      privateChannelCreated({ channelId: 1 }),
      subscriptionsCreated(1, [10, 11, 12]),
      subscriptionsDeactivated(1, [11, 12]),
      subscriptionsReactivated(1, [12]),
    ]).get('1');
    expect(doc!.subscriber_count).toBe(2);
  });

  it('ignores changes to a channel it never saw created', () => expect(after([channelNameChanged(9, 'a', 'b')]).size).toBe(0));

  it('keeps a channel\'s own topics_policy: from its creation, then from each change', () => {
    expect(after([channelCreated({ channelId: 7 })]).get('7')).not.toHaveProperty('topics_policy');
    expect(after([channelCreated({ channelId: 7, topicsPolicy: 'empty_topic_only' })]).get('7')).toMatchObject({ topics_policy: 'empty_topic_only' });
    const changed = { type: 'ChannelTopicsPolicyChanged', data: { realmId: 1, channelId: 7, oldPolicy: 'inherit', newPolicy: 'disable_empty_topic', actorId: 2, at: '2026-01-02T03:04:05.000Z' } };
    expect(after([channelCreated({ channelId: 7 }), changed]).get('7')).toMatchObject({ topics_policy: 'disable_empty_topic' });
  });

  it('marks a default channel, and forgets the mark when it stops being one', () => {
    expect(after([channelCreated({ channelId: 7 }), defaultChannelAdded(7)]).get('7')).toMatchObject({ is_default: true });
    expect(after([channelCreated({ channelId: 7 }), defaultChannelAdded(7), defaultChannelRemoved(7)]).get('7')).not.toHaveProperty('is_default');
  });
});
