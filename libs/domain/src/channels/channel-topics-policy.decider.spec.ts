import { channelCreated, deciderSpec } from '@app/testing';
import {
  CannotAdministerChannelError,
  CannotSetTopicsPolicyError,
  canSetTopicsPolicy,
  channelsDecider,
  type ChannelsCommand,
  type ChannelTopicsPolicy,
  effectiveTopicsPolicy,
  InsufficientPermissionError,
  type Viewer,
} from '@app/domain';

const given = deciderSpec(channelsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const iago: Viewer = { userId: 2, role: 'administrator' };
const hamlet: Viewer = { userId: 10, role: 'member' };
const cordelia: Viewer = { userId: 11, role: 'member' };

const setPolicy = (topicsPolicy: ChannelTopicsPolicy, overrides: Partial<{ actor: Viewer; maySetTopicsPolicy: boolean; hasNamedTopics: boolean }> = {}): ChannelsCommand => ({
  type: 'UpdateChannel',
  data: {
    realmId: 1, actor: overrides.actor ?? iago, now: AT, channelId: 1, isSubscribed: false, hasSubscribers: true,
    topicsPolicy, maySetTopicsPolicy: overrides.maySetTopicsPolicy ?? true,
    ...(overrides.hasNamedTopics === undefined ? {} : { hasNamedTopics: overrides.hasNamedTopics }),
  },
});

const create = (topicsPolicy: ChannelTopicsPolicy | undefined, maySetTopicsPolicy: boolean): ChannelsCommand => ({
  type: 'CreateChannels',
  data: {
    realmId: 1, actor: hamlet, now: AT, maySetTopicsPolicy,
    channels: [{ channelId: 5, name: 'rooms', description: '', renderedDescription: '', inviteOnly: false, historyPublicToSubscribers: null, isWebPublic: false, topicsPolicy }],
  },
});

describe('channelsDecider: a channel\'s topics_policy (validate_topics_policy, do_set_stream_property)', () => {
  const general = channelCreated({ channelId: 1, creatorId: 10 });
  const changed = (oldPolicy: ChannelTopicsPolicy, newPolicy: ChannelTopicsPolicy) =>
    ({ type: 'ChannelTopicsPolicyChanged' as const, data: { realmId: 1, channelId: 1, oldPolicy, newPolicy, actorId: 2, at: AT } });

  it('changes the policy from "inherit", then back, and records nothing when it is already the value', () => {
    given([general]).when(setPolicy('empty_topic_only')).then([changed('inherit', 'empty_topic_only')]);
    given([general, changed('inherit', 'disable_empty_topic')]).when(setPolicy('inherit')).then([changed('disable_empty_topic', 'inherit')]);
    given([general, changed('inherit', 'disable_empty_topic')]).when(setPolicy('disable_empty_topic')).thenNothingHappened();
    given([general]).when(setPolicy('inherit')).thenNothingHappened();
  });

  it('refuses a policy other than "inherit" to whoever is not in can_set_topics_policy_group: "Insufficient permission"', () => {
    given([general]).when(setPolicy('allow_empty_topic', { maySetTopicsPolicy: false })).thenThrows(InsufficientPermissionError, 'Insufficient permission');
    // Going back to "inherit" needs only the right to administer the channel.
    given([general, changed('inherit', 'allow_empty_topic')]).when(setPolicy('inherit', { maySetTopicsPolicy: false })).then([changed('allow_empty_topic', 'inherit')]);
  });

  it('refuses empty_topic_only while the channel has messages in named topics (CannotSetTopicsPolicyError)', () => {
    given([general]).when(setPolicy('empty_topic_only', { hasNamedTopics: true })).thenThrows(
      CannotSetTopicsPolicyError,
      'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
    );
    given([general]).when(setPolicy('empty_topic_only', { hasNamedTopics: false })).then([changed('inherit', 'empty_topic_only')]);
    given([general]).when(setPolicy('disable_empty_topic', { hasNamedTopics: true })).then([changed('inherit', 'disable_empty_topic')]);
  });

  it('needs the right to administer the channel even with can_set_topics_policy', () =>
    given([general]).when(setPolicy('allow_empty_topic', { actor: cordelia })).thenThrows(CannotAdministerChannelError));

  it('creates a channel with its policy, recorded only when it is not "inherit"', () => {
    given([]).when(create('empty_topic_only', true)).thenMatches([{ type: 'ChannelCreated', data: { channelId: 5, topicsPolicy: 'empty_topic_only' } }]);
    given([]).when(create('inherit', false)).thenMatches([{ type: 'ChannelCreated', data: { channelId: 5 } }]);
    given([]).when(create('disable_empty_topic', false)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
  });

  it('keeps the created policy in the state, so setting it again records nothing', () =>
    given([channelCreated({ channelId: 1, topicsPolicy: 'empty_topic_only' })]).when(setPolicy('empty_topic_only')).thenNothingHappened());
});

describe('canSetTopicsPolicy and effectiveTopicsPolicy', () => {
  it('lets administrators always set it, others by the organization\'s group', () => {
    expect(canSetTopicsPolicy('administrator', 'role:nobody')).toBe(true);
    expect(canSetTopicsPolicy('moderator', 'role:nobody')).toBe(false);
    expect(canSetTopicsPolicy('member', 'role:members')).toBe(true);
    expect(canSetTopicsPolicy('guest', 'role:members')).toBe(false);
  });

  it('is the channel\'s own policy unless it is "inherit" (get_stream_topics_policy)', () => {
    expect(effectiveTopicsPolicy('empty_topic_only', 'disable_empty_topic')).toBe('empty_topic_only');
    expect(effectiveTopicsPolicy('inherit', 'disable_empty_topic')).toBe('disable_empty_topic');
    expect(effectiveTopicsPolicy(undefined, 'allow_empty_topic')).toBe('allow_empty_topic');
  });
});
