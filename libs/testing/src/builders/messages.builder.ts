import type { ChannelFacts, MessageSent, SendMessage, SendMessageFacts, UserFacts, UserTopicVisibilityPolicyChanged } from '@app/domain';
import { checkSendMessage, DEFAULT_TOPIC_AUTOMATION } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** A user as the messaging rules see them; King Hamlet (id 10), an active member, unless overridden. */
export const userFacts = (overrides: Partial<UserFacts> = {}): UserFacts => ({
  userId: 10, email: 'hamlet@acme.test', fullName: 'King Hamlet', role: 'member', isActive: true, isBot: false,
  botType: null, botOwnerId: null,
  ...overrides,
});

/** The public channel "Denmark" (id 5), unless overridden. */
export const channelFacts = (overrides: Partial<ChannelFacts> = {}): ChannelFacts => ({
  streamId: 5, name: 'Denmark', inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false, isArchived: false,
  ...overrides,
});

/**
 * POST /messages as hamlet to channel "Denmark", topic "greetings", content "hello", with the
 * facts of a channel hamlet is subscribed to alone; override what a test is about.
 */
export const sendMessageFacts = (overrides: Partial<SendMessageFacts> = {}): SendMessageFacts => ({
  realmId: 1, now: AT, client: 'ZulipMobile', sender: userFacts(),
  type: 'stream', to: 'Denmark', topic: 'greetings', content: 'hello', readBySender: true, localId: null, queueId: null,
  directory: { byEmail: {}, byId: {} }, channel: channelFacts(), subscriberIds: [10], senderMayPost: true,
  botOwnerSubscribed: false, senderMutedChannel: false, topicParticipantIds: [], topicHasVisibleMessages: true,
  topicPolicies: {}, canMentionManyUsers: false, mentionables: [], mentionableGroups: [], linkableChannels: [], topicAutomation: {},
  emptyTopicDisplayName: 'general chat', maxMessageLength: 10000, topicsPolicy: 'allow_empty_topic',
  ...overrides,
});

/**
 * The send of those facts under message id 100 (or `messageId`), checked as the sender checks it
 * (checkSendMessage): a refused send throws Zulip's error here, where the test builds the command.
 */
export const sendMessage = ({ messageId = 100, ...overrides }: Partial<SendMessageFacts> & { messageId?: number } = {}): SendMessage => ({
  type: 'SendMessage',
  data: { messageId, message: checkSendMessage(sendMessageFacts(overrides)) },
});

/** A directory of users for direct messages, by lower-cased email and id. */
export const directoryOf = (...users: UserFacts[]): SendMessageFacts['directory'] => ({
  byEmail: Object.fromEntries(users.map((u) => [u.email.toLowerCase(), u])),
  byId: Object.fromEntries(users.map((u) => [u.userId, u])),
});

/** A message hamlet (10) sent to "Denmark" > "greetings", received by hamlet alone, unless overridden. */
export const messageSent = (overrides: Partial<MessageSent['data']> = {}): MessageSent => ({
  type: 'MessageSent',
  data: {
    realmId: 1, messageId: 100, senderId: 10, recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: 'greetings' },
    content: 'hello', renderedContent: '<p>hello</p>', client: 'ZulipMobile', isMeMessage: false, hasLink: false, hasImage: false,
    hasAttachment: false, recipientIds: [10], readUserIds: [10], mentionedUserIds: [], streamWildcardMentioned: false,
    topicWildcardMentionedUserIds: [], localId: null, queueId: null, at: AT,
    ...overrides,
  },
});

/** A direct message from `senderId` to the conversation `participantIds`. */
export const directMessageSent = (messageId: number, senderId: number, participantIds: number[], content = 'hi'): MessageSent =>
  messageSent({
    messageId, senderId, recipient: { type: 'direct', participantIds }, content, renderedContent: `<p>${content}</p>`,
    recipientIds: participantIds, readUserIds: [senderId],
  });

export const userTopicPolicyChanged = (overrides: Partial<UserTopicVisibilityPolicyChanged['data']> = {}): UserTopicVisibilityPolicyChanged => ({
  type: 'UserTopicVisibilityPolicyChanged',
  data: { realmId: 1, userId: 10, streamId: 5, topic: 'greetings', oldPolicy: 0, newPolicy: 3, messageId: 100, at: AT, ...overrides },
});

export { DEFAULT_TOPIC_AUTOMATION };
