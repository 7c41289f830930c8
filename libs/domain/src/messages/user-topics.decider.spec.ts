import { deciderSpec } from '@app/testing';
import { DomainError, isMutedByVisibility, type SetUserTopicVisibilityPolicy, userTopicsDecider, userTopicsStream, VISIBILITY_POLICY } from '@app/domain';

const given = deciderSpec(userTopicsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const { INHERIT, MUTED, UNMUTED, FOLLOWED } = VISIBILITY_POLICY;
const set = (data: Partial<SetUserTopicVisibilityPolicy['data']> = {}): SetUserTopicVisibilityPolicy => ({
  type: 'SetUserTopicVisibilityPolicy',
  data: { realmId: 1, userId: 10, streamId: 5, topic: 'Greetings', visibilityPolicy: MUTED, currentPolicy: INHERIT, at: AT, ...data },
});

describe('userTopicsDecider (update_user_topic, do_set_user_topic_visibility_policy)', () => {
  it('lives on the user\'s user_topics stream', () => expect(userTopicsStream(10)).toBe('user_topics-10'));

  it('records the new policy with the old one, naming no message', () =>
    given([]).when(set()).then([
      { type: 'UserTopicVisibilityPolicyChanged', data: { realmId: 1, userId: 10, streamId: 5, topic: 'Greetings', oldPolicy: INHERIT, newPolicy: MUTED, messageId: null, at: AT } },
    ]));

  it.each([
    [INHERIT, MUTED],
    [MUTED, UNMUTED],
    [UNMUTED, FOLLOWED],
    [FOLLOWED, INHERIT],
  ])('changes %i to %i', (currentPolicy, visibilityPolicy) =>
    given([]).when(set({ currentPolicy, visibilityPolicy })).thenMatches([{ data: { oldPolicy: currentPolicy, newPolicy: visibilityPolicy } }]));

  it('records nothing when the policy is already the current one (removing a missing policy included)', () => {
    given([]).when(set({ currentPolicy: FOLLOWED, visibilityPolicy: FOLLOWED })).thenNothingHappened();
    given([]).when(set({ currentPolicy: INHERIT, visibilityPolicy: INHERIT })).thenNothingHappened();
  });

  it('reads "general chat" as the empty topic', () => given([]).when(set({ topic: 'general chat' })).thenMatches([{ data: { topic: '' } }]));

  it('accepts 60 characters (code points), refuses 61: "topic is too long (limit: 60 characters)"', () => {
    given([]).when(set({ topic: '🙂'.repeat(60) })).thenMatches([{ data: { newPolicy: MUTED } }]);
    given([]).when(set({ topic: 'x'.repeat(61) })).thenThrows(DomainError, 'topic is too long (limit: 60 characters)');
  });

  it.each([4, -1, 1.5])('refuses the policy %j: "Invalid visibility_policy"', (visibilityPolicy) =>
    given([]).when(set({ visibilityPolicy })).thenThrows(DomainError, 'Invalid visibility_policy'));

  it('checks the topic before the policy, as the view validates its parameters in order', () =>
    given([]).when(set({ topic: 'x'.repeat(61), visibilityPolicy: 9 })).thenThrows(DomainError, 'topic is too long (limit: 60 characters)'));
});

describe('isMutedByVisibility (is_row_muted)', () => {
  it.each([
    [INHERIT, false, false],
    [MUTED, false, true],
    [UNMUTED, false, false],
    [FOLLOWED, false, false],
    [INHERIT, true, true],
    [MUTED, true, true],
    [UNMUTED, true, false],
    [FOLLOWED, true, false],
  ] as const)('policy %i, channel muted %s: hidden %s', (policy, channelMuted, hidden) => expect(isMutedByVisibility(policy, channelMuted)).toBe(hidden));
});
