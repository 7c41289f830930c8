import {
  AUTOMATIC_POLICY as A,
  DEFAULT_TOPIC_AUTOMATION,
  participationMayChangePolicy,
  participationPolicyChanges,
  type TopicAutomationSettings,
  type TopicParticipation,
  VISIBILITY_POLICY as V,
  visibilityPolicyForParticipation,
  visibilityPolicyForSend,
} from '@app/domain';

const settings = (followTopics: TopicAutomationSettings['followTopics'], unmuteTopicsInMutedChannels: TopicAutomationSettings['unmuteTopicsInMutedChannels']) => ({
  ...DEFAULT_TOPIC_AUTOMATION,
  followTopics,
  unmuteTopicsInMutedChannels,
});

describe('visibilityPolicyForParticipation (visibility_policy_for_participation + should_change_visibility_policy)', () => {
  it.each([
    // follow, unmute, current, channel muted → new policy
    ['follow on participation', A.ON_PARTICIPATION, A.NEVER, V.INHERIT, false, V.FOLLOWED],
    ['follow on participation, muted channel', A.ON_PARTICIPATION, A.ON_PARTICIPATION, V.INHERIT, true, V.FOLLOWED],
    ['a muted topic is raised to followed', A.ON_PARTICIPATION, A.NEVER, V.MUTED, false, V.FOLLOWED],
    ['an unmuted topic is raised to followed', A.ON_PARTICIPATION, A.NEVER, V.UNMUTED, false, V.FOLLOWED],
    ['already followed: nothing', A.ON_PARTICIPATION, A.NEVER, V.FOLLOWED, false, null],
    ['unmute on participation in a muted channel', A.NEVER, A.ON_PARTICIPATION, V.INHERIT, true, V.UNMUTED],
    ['unmute on participation: a muted topic of a muted channel', A.NEVER, A.ON_PARTICIPATION, V.MUTED, true, V.UNMUTED],
    ['unmute on participation: already unmuted', A.NEVER, A.ON_PARTICIPATION, V.UNMUTED, true, null],
    ['unmute on participation never lowers a followed topic', A.NEVER, A.ON_PARTICIPATION, V.FOLLOWED, true, null],
    ['unmute on participation outside a muted channel: nothing', A.NEVER, A.ON_PARTICIPATION, V.MUTED, false, null],
    ['on send is not participation', A.ON_SEND, A.ON_SEND, V.INHERIT, true, null],
    ['on initiation is not participation', A.ON_INITIATION, A.ON_INITIATION, V.INHERIT, true, null],
    ["Zulip's defaults change nothing", DEFAULT_TOPIC_AUTOMATION.followTopics, DEFAULT_TOPIC_AUTOMATION.unmuteTopicsInMutedChannels, V.INHERIT, true, null],
    ['never', A.NEVER, A.NEVER, V.INHERIT, true, null],
  ] as const)('%s', (_name, follow, unmute, current, channelMuted, expected) => {
    expect(visibilityPolicyForParticipation(settings(follow, unmute), current, channelMuted)).toBe(expected);
    // Whatever participation decides, a send by the same user decides too (sending is participation).
    if (expected !== null) expect(visibilityPolicyForSend(settings(follow, unmute), current, channelMuted, false)).toBe(expected);
  });

  it('participationMayChangePolicy: only when a setting is "on participation"', () => {
    expect(participationMayChangePolicy(settings(A.ON_PARTICIPATION, A.NEVER))).toBe(true);
    expect(participationMayChangePolicy(settings(A.NEVER, A.ON_PARTICIPATION))).toBe(true);
    expect(participationMayChangePolicy(DEFAULT_TOPIC_AUTOMATION)).toBe(false);
    expect(participationMayChangePolicy(settings(A.ON_SEND, A.ON_INITIATION))).toBe(false);
  });
});

describe('participationPolicyChanges', () => {
  const AT = '2026-03-04T05:06:07.000Z';
  const who = { realmId: 1, userId: 10, messageId: 42, at: AT };
  const participation = (o: Partial<TopicParticipation> = {}): TopicParticipation => ({
    streamId: 7, topic: 'Lunch', settings: settings(A.ON_PARTICIPATION, A.NEVER), currentPolicy: V.INHERIT, subscribed: true, channelMuted: false, ...o,
  });

  it('given a subscriber following on participation, when they take part, then the topic is followed', () =>
    expect(participationPolicyChanges(participation(), who)).toEqual([
      { type: 'UserTopicVisibilityPolicyChanged', data: { realmId: 1, userId: 10, streamId: 7, topic: 'Lunch', oldPolicy: V.INHERIT, newPolicy: V.FOLLOWED, messageId: 42, at: AT } },
    ]));

  it('given a muted topic of a muted channel and unmute on participation, then it is unmuted', () =>
    expect(participationPolicyChanges(participation({ settings: settings(A.NEVER, A.ON_PARTICIPATION), currentPolicy: V.MUTED, channelMuted: true }), who)).toMatchObject([
      { data: { oldPolicy: V.MUTED, newPolicy: V.UNMUTED } },
    ]));

  it('changes nothing without facts (a direct message, a bot), for a user not subscribed, or when nothing is raised', () => {
    expect(participationPolicyChanges(null, who)).toEqual([]);
    expect(participationPolicyChanges(participation({ subscribed: false }), who)).toEqual([]);
    expect(participationPolicyChanges(participation({ currentPolicy: V.FOLLOWED }), who)).toEqual([]);
    expect(participationPolicyChanges(participation({ settings: settings(A.NEVER, A.NEVER) }), who)).toEqual([]);
  });
});
