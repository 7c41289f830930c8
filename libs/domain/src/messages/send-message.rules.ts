import type { StoredSubmessage } from '../submessages/submessages.events';
import { pythonJsonDumps, widgetOf } from '../submessages/widgets.rules';
import { userIdsWithAlertWords } from '../alert-words/alert-words.matcher';
import { isMeMessage } from './content.rules';
import {
  type MessageEditEvent,
  type MessageRecipient,
  type MessageSent,
  type UserTopicVisibilityPolicyChanged,
  VISIBILITY_POLICY,
  type VisibilityPolicy,
} from './messages.events';
import type { CheckedMessage } from './send-message.checks';
import { DEFAULT_TOPIC_AUTOMATION, visibilityPolicyForSend } from './visibility.rules';

/**
 * The rules of a send: its recipients and their flags, its automatic topic visibility changes,
 * and the events it records (decideSend). Not a decider of its own: messageDecider
 * (message.decider.ts) decides `SendMessage` with decideSend.
 *
 * Send a checked message under the id just taken for it. The checks ran before the id was taken
 * (checkSendMessage: a refused message takes no id), and a CheckedMessage can only come from
 * them, so deciding a send is building its events; the one rule left to the stream is that an id
 * is sent once (MessageAlreadySentError). Decided by messageDecider (message.decider.ts).
 */
/**
 * `widgetSubmessageId`: the id (sequence `submessage`) of the widget submessage the content makes
 * (widgetOf), taken by the sender beforehand; without it no widget is made.
 */
export type SendMessage = {
  type: 'SendMessage';
  /** `widgetContent`: POST /messages `widget_content`, checked (checkWidgetContent); it replaces what the content says. */
  data: { messageId: number; message: CheckedMessage; widgetSubmessageId?: number; widgetContent?: Record<string, unknown> };
};

/** The distinct ids in ascending order; most sets already are (subscriber lists are kept sorted), and skip the sort. */
const sorted = (ids: ReadonlySet<number>): number[] => {
  const list = [...ids];
  for (let i = 1; i < list.length; i++) if (list[i - 1] > list[i]) return list.sort((a, b) => a - b);
  return list;
};

/**
 * THE place where a send's recipients and their initial per-user flags are computed (Zulip's
 * create_user_messages / get_recipient_info): mention flags and any future computed flag (group
 * mentions, alert words) belong here, fed by facts the SendMessageFactsLoader looks up.
 *
 * Who gets a per-user row and with which flags: active subscribers of the channel (or the
 * conversation's active participants) plus mentioned active generic bots; the sender's row starts
 * read per read_by_sender; `mentioned` for users mentioned by name; every row
 * `stream_wildcard_mentioned` for a channel wildcard; `topic_wildcard_mentioned` for the topic's
 * participants (the sender included) on a topic wildcard.
 */
export function recipientsAndFlags(checked: CheckedMessage) {
  const { rendered, target, facts } = checked;
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
  // has_alert_word (AlertWordNotificationProcessor): recipients, the sender included, whose words the content holds.
  const alertWordUserIds = userIdsWithAlertWords(checked.content, facts.alertWords ?? {}).filter((id) => recipients.has(id));
  return {
    recipientIds,
    readUserIds: facts.readBySender && recipients.has(facts.sender.userId) ? [facts.sender.userId] : [],
    mentionedUserIds: rendered.mentionedUserIds.filter((id) => recipients.has(id)),
    streamWildcardMentioned: rendered.streamWildcard,
    topicWildcardMentionedUserIds: rendered.topicWildcard ? recipientIds.filter((id) => participants.has(id)) : [],
    ...(alertWordUserIds.length > 0 ? { alertWordUserIds } : {}),
  };
}

/**
 * The automatic topic visibility changes of a channel message (do_send_messages): the sender's
 * (reported as automatic_new_visibility_policy), then mentioned humans (by name, or as members of
 * a mentioned group) who follow topics where they are mentioned, unless they muted or already
 * follow the topic.
 */
function visibilityChanges(checked: CheckedMessage, messageId: number, recipientIds: number[]): UserTopicVisibilityPolicyChanged[] {
  const { facts } = checked;
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
  // human_user_personal_mentions: group members count as mentioned (mentions_user_ids).
  const humans = new Set([...facts.mentionables.filter((u) => !u.isBot).map((u) => u.userId), ...(facts.humanGroupMemberIds ?? [])]);
  for (const userId of checked.rendered.mentionedUserIds) {
    if (!humans.has(userId) || !recipientIds.includes(userId) || !settings(userId).followTopicsWhereMentioned) continue;
    const policy = changes.get(userId) ?? current(userId);
    if (policy === VISIBILITY_POLICY.MUTED || policy === VISIBILITY_POLICY.FOLLOWED) continue;
    changes.set(userId, VISIBILITY_POLICY.FOLLOWED);
  }
  return [...changes].map(([userId, newPolicy]) => ({
    type: 'UserTopicVisibilityPolicyChanged',
    data: { realmId: facts.realmId, userId, streamId: channel.streamId, topic, oldPolicy: current(userId), newPolicy, messageId, at: facts.now },
  }));
}

function messageSent(checked: CheckedMessage, messageId: number, widget: { submessageId?: number; content?: Record<string, unknown> }): MessageSent {
  const { target, rendered, facts } = checked;
  const recipient: MessageRecipient =
    target.kind === 'channel'
      ? { type: 'stream', streamId: target.channel.streamId, streamName: target.channel.name, topic: target.topic }
      : { type: 'direct', participantIds: target.participants.map((u) => u.userId) };
  return {
    type: 'MessageSent',
    data: {
      realmId: facts.realmId,
      messageId,
      senderId: facts.sender.userId,
      recipient,
      content: checked.content,
      renderedContent: rendered.html,
      client: facts.client,
      isMeMessage: isMeMessage(checked.content),
      hasLink: rendered.hasLink,
      hasImage: rendered.hasImage,
      hasAttachment: rendered.hasAttachment,
      ...recipientsAndFlags(checked),
      ...widgetSubmessage(checked, widget.submessageId, widget.content),
      localId: facts.localId,
      queueId: facts.queueId,
      at: facts.now,
    },
  };
}

/** do_widget_post_save_actions: a `widget` submessage by the sender with the widget's content as Zulip stores it. */
function widgetSubmessage(checked: CheckedMessage, submessageId: number | undefined, explicit: Record<string, unknown> | undefined): { widget?: StoredSubmessage } {
  const widget = submessageId === undefined ? null : (explicit ?? widgetOf(checked.content));
  if (widget === null) return {};
  return { widget: { submessageId: submessageId!, senderId: checked.facts.sender.userId, msgType: 'widget', content: pythonJsonDumps(widget) } };
}

/** A send's events: `MessageSent`, then the automatic topic visibility changes it causes. */
export function decideSend({ messageId, message, widgetSubmessageId, widgetContent }: SendMessage['data']): [MessageSent, ...UserTopicVisibilityPolicyChanged[]] {
  const sent = messageSent(message, messageId, { submessageId: widgetSubmessageId, content: widgetContent });
  return [sent, ...visibilityChanges(message, messageId, sent.data.recipientIds)];
}

/** The sender's automatic visibility change among a send's events (POST /messages automatic_new_visibility_policy). */
export const automaticNewVisibilityPolicy = (events: readonly MessageEditEvent[], senderId: number): VisibilityPolicy | undefined =>
  events.find((e): e is UserTopicVisibilityPolicyChanged => e.type === 'UserTopicVisibilityPolicyChanged' && e.data.userId === senderId)?.data.newPolicy;
