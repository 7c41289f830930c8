import { userFacts } from '@app/testing';
import { DEFAULT_REALM_MESSAGING_SETTINGS, defaultChannelGroupSettings, defaultRealmGroupSettings, type EditMessageFacts, type MessagesMoved, moveNotices } from '@app/domain';

const hamlet = userFacts();
const moved = (overrides: Partial<MessagesMoved['data']> = {}): MessagesMoved['data'] => ({
  realmId: 1, targetMessageId: 100, messageIds: [100, 101], propagateMode: 'change_all', origStreamId: 5, origTopic: 'old', streamId: 5,
  streamName: 'Denmark', topic: 'new', resolution: null, userIdsLosingRows: [], userIdsGainingRows: [], editorId: 10, at: '2026-01-01T00:00:00.000Z', ...overrides,
});
const facts = (overrides: Partial<EditMessageFacts> = {}, request: Partial<EditMessageFacts['request']> = {}): EditMessageFacts => ({
  realmId: 1, messageId: 100, now: '2026-01-01T00:00:00.000Z', editor: hamlet,
  request: { propagateMode: 'change_all', sendNotificationToOldThread: false, sendNotificationToNewThread: true, ...request },
  currentContentSha256: '', location: { streamId: 5, topic: 'old' },
  origChannel: { streamId: 5, name: 'Denmark', inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false, isArchived: false, groupSettings: defaultChannelGroupSettings(null), subscriberIds: [] },
  targetChannel: null, settings: DEFAULT_REALM_MESSAGING_SETTINGS, realmGroups: defaultRealmGroupSettings(), topicMessageIds: [100, 101], firstMessageIdSentAfter: {},
  targetTopicHasMessages: false, origTopicPolicies: {}, targetTopicPolicies: {}, mentionables: [], mentionableGroups: [], linkableChannels: [], canMentionManyUsers: false,
  topicParticipantIds: [], emptyTopicDisplayName: 'general chat', maxMessageLength: 10000, ...overrides,
});
const user = '@_**King Hamlet|10**';

describe('moveNotices (Notification Bot, in Zulip\'s words)', () => {
  it('a whole topic moved into an empty topic: "This topic was moved here"; nothing in the old topic by default', () =>
    expect(moveNotices(moved(), facts(), false)).toEqual([{ streamId: 5, topic: 'new', content: `This topic was moved here from #**Denmark>old** by ${user}.` }]));

  it('send_notification_to_old_thread: "This topic was moved to" in the old topic', () =>
    expect(moveNotices(moved(), facts({}, { sendNotificationToOldThread: true }), false)[1]).toEqual({
      streamId: 5, topic: 'old', content: `This topic was moved to #**Denmark>new** by ${user}.`,
    }));

  it('part of a topic: counts, or links the one message', () => {
    const part = facts({ topicMessageIds: [99, 100, 101] }, { propagateMode: 'change_later', sendNotificationToOldThread: true });
    expect(moveNotices(moved({ propagateMode: 'change_later' }), part, false).map((n) => n.content)).toEqual([
      `2 messages were moved here from #**Denmark>old** by ${user}.`,
      `2 messages were moved from this topic to #**Denmark>new** by ${user}.`,
    ]);
    expect(moveNotices(moved({ propagateMode: 'change_one', messageIds: [100] }), { ...part, request: { ...part.request, propagateMode: 'change_one' } }, false).map((n) => n.content)).toEqual([
      `[A message](#narrow/channel/5-Denmark/topic/new/near/100) was moved here from #**Denmark>old** by ${user}.`,
      `A message was moved from this topic to #**Denmark>new** by ${user}.`,
    ]);
  });

  it('into a topic that has messages: counts even when the whole topic moved', () =>
    expect(moveNotices(moved(), facts({ targetTopicHasMessages: true }), false)[0].content).toBe(`2 messages were moved here from #**Denmark>old** by ${user}.`));

  it('a pure resolve or unresolve: the resolved / unresolved notice and no moved-here notice', () => {
    expect(moveNotices(moved({ topic: '✔ old', resolution: 'resolved' }), facts(), false)).toEqual([{ streamId: 5, topic: '✔ old', content: `${user} has marked this topic as resolved.` }]);
    expect(moveNotices(moved({ origTopic: '✔ old', topic: 'old', resolution: 'unresolved' }), facts(), false)[0].content).toBe(`${user} has marked this topic as unresolved.`);
  });

  it('send_notification_to_new_thread=false: nothing in the new topic', () => expect(moveNotices(moved(), facts({}, { sendNotificationToNewThread: false }), false)).toEqual([]));
});
