import type { Decider } from '../shared/decider';
import { isMeMessage } from './content.rules';
import { messageAlreadySent } from './messages.errors';
import {
  type MessageEvent,
  type MessageRecipient,
  type MessageSent,
  type UserTopicVisibilityPolicyChanged,
  VISIBILITY_POLICY,
  type VisibilityPolicy,
} from './messages.events';
import { type CheckedMessage, checkSendMessage } from './send-message.checks';
import type { SendMessageFacts } from './send-message.facts';
import { DEFAULT_TOPIC_AUTOMATION, visibilityPolicyForSend } from './visibility.rules';

export type SendMessage = { type: 'SendMessage'; data: SendMessageFacts };
export type MessageCommand = SendMessage;

/** The state of one message's stream, `message-<id>`. */
export type MessageState = { sent: boolean };

const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Who gets a per-user row and with which flags (create_user_messages): active subscribers of the
 * channel (or the conversation's active participants) plus mentioned active generic bots; the
 * sender's row starts read per read_by_sender; `mentioned` for users mentioned by name; every
 * row `stream_wildcard_mentioned` for a channel wildcard; `topic_wildcard_mentioned` for the
 * topic's participants (the sender included) on a topic wildcard.
 */
function recipientState(checked: CheckedMessage, facts: SendMessageFacts) {
  const { rendered, target } = checked;
  const recipients = new Set<number>(
    target.kind === 'channel' ? facts.subscriberIds : target.participants.filter((u) => u.isActive).map((u) => u.userId),
  );
  if (target.kind === 'channel') {
    for (const user of facts.mentionables) {
      if (user.isBot && user.isActive && user.botType === 'generic' && rendered.mentionedUserIds.includes(user.userId)) recipients.add(user.userId);
    }
  }
  const participants = new Set([...facts.topicParticipantIds, facts.sender.userId]);
  const recipientIds = sorted(recipients);
  return {
    recipientIds,
    readUserIds: facts.readBySender && recipients.has(facts.sender.userId) ? [facts.sender.userId] : [],
    mentionedUserIds: rendered.mentionedUserIds.filter((id) => recipients.has(id)),
    streamWildcardMentioned: rendered.streamWildcard,
    topicWildcardMentionedUserIds: rendered.topicWildcard ? recipientIds.filter((id) => participants.has(id)) : [],
  };
}

/**
 * The automatic topic visibility changes of a channel message (do_send_messages): the sender's
 * (reported as automatic_new_visibility_policy), then mentioned humans who follow topics where
 * they are mentioned, unless they muted or already follow the topic.
 */
function visibilityChanges(checked: CheckedMessage, facts: SendMessageFacts, recipientIds: number[]): UserTopicVisibilityPolicyChanged[] {
  if (checked.target.kind !== 'channel') return [];
  const { channel, topic } = checked.target;
  const changes = new Map<number, VisibilityPolicy>();
  const current = (userId: number): VisibilityPolicy => facts.topicPolicies[userId] ?? VISIBILITY_POLICY.INHERIT;
  const settings = (userId: number) => facts.topicAutomation[userId] ?? DEFAULT_TOPIC_AUTOMATION;
  const sender = facts.sender;
  if (!sender.isBot) {
    const policy = visibilityPolicyForSend(settings(sender.userId), current(sender.userId), facts.senderMutedChannel, !facts.topicHasVisibleMessages);
    if (policy !== null) changes.set(sender.userId, policy);
  }
  const humans = new Set(facts.mentionables.filter((u) => !u.isBot).map((u) => u.userId));
  for (const userId of checked.rendered.mentionedUserIds) {
    if (!humans.has(userId) || !recipientIds.includes(userId) || !settings(userId).followTopicsWhereMentioned) continue;
    const policy = changes.get(userId) ?? current(userId);
    if (policy === VISIBILITY_POLICY.MUTED || policy === VISIBILITY_POLICY.FOLLOWED) continue;
    changes.set(userId, VISIBILITY_POLICY.FOLLOWED);
  }
  return [...changes].map(([userId, newPolicy]) => ({
    type: 'UserTopicVisibilityPolicyChanged',
    data: { realmId: facts.realmId, userId, streamId: channel.streamId, topic, oldPolicy: current(userId), newPolicy, messageId: facts.messageId, at: facts.now },
  }));
}

export function messageSent(checked: CheckedMessage, facts: SendMessageFacts): { sent: MessageSent; state: ReturnType<typeof recipientState> } {
  const { target, rendered } = checked;
  const recipient: MessageRecipient =
    target.kind === 'channel'
      ? { type: 'stream', streamId: target.channel.streamId, streamName: target.channel.name, topic: target.topic }
      : { type: 'direct', participantIds: target.participants.map((u) => u.userId) };
  const state = recipientState(checked, facts);
  return {
    state,
    sent: {
      type: 'MessageSent',
      data: {
        realmId: facts.realmId,
        messageId: facts.messageId,
        senderId: facts.sender.userId,
        recipient,
        content: checked.content,
        renderedContent: rendered.html,
        client: facts.client,
        isMeMessage: isMeMessage(checked.content),
        hasLink: rendered.hasLink,
        hasImage: rendered.hasImage,
        hasAttachment: rendered.hasAttachment,
        ...state,
        localId: facts.localId,
        queueId: facts.queueId,
        at: facts.now,
      },
    },
  };
}

/** One message's stream: sent once, with what it started as. */
export const messageDecider: Decider<MessageCommand, MessageEvent, MessageState> = {
  initialState: () => ({ sent: false }),
  decide: (command, state) => {
    switch (command.type) {
      case 'SendMessage': {
        if (state.sent) throw messageAlreadySent(command.data.messageId);
        const checked = checkSendMessage(command.data);
        const { sent } = messageSent(checked, command.data);
        return [sent, ...visibilityChanges(checked, command.data, sent.data.recipientIds)];
      }
    }
  },
  evolve: (state, event) => (event.type === 'MessageSent' ? { sent: true } : state),
};

/** The sender's automatic visibility change among a send's events (POST /messages automatic_new_visibility_policy). */
export const automaticNewVisibilityPolicy = (events: MessageEvent[], senderId: number): VisibilityPolicy | undefined =>
  events.find((e): e is UserTopicVisibilityPolicyChanged => e.type === 'UserTopicVisibilityPolicyChanged' && e.data.userId === senderId)?.data.newPolicy;
