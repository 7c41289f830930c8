import { checkChannelName, normalizeChannelName } from '../channels/channels.rules';
import { normalizeContent } from './content.rules';
import {
  channelDoesNotExist,
  channelIdDoesNotExist,
  directMessageInitiationNotAllowed,
  directMessageNotAuthorized,
  directMessagesDisabled,
  invalidEmail,
  invalidUserId,
  messagesNotAllowedInEmptyTopic,
  topicsNotAllowed,
  noPermissionToPost,
  notAuthorizedToSend,
  streamWildcardMentionNotAllowed,
  topicWildcardMentionNotAllowed,
  userNoLongerActive,
} from './messages.errors';
import { type Addressee, directParticipants, parseAddressee } from './recipients.rules';
import { renderMessage, type RenderedMessage } from './rendering/render-message';
import type { ChannelFacts, DirectMessagePolicyFacts, MentionableGroupFacts, SendMessageFacts, UserFacts } from './send-message.facts';
import { isSystemGroupMember } from '../shared/system-groups';
import { UserGroupMentionNotAllowedError } from '../user-groups/user-groups.errors';
import { escapeHtml } from './text.rules';
import { truncateTopic } from './topic.rules';

/** check_user_group_mention_allowed: the sender is in can_mention_group of every group the message mentions. */
export function checkGroupMentionsAllowed(rendered: RenderedMessage, groups: readonly MentionableGroupFacts[]): void {
  for (const group of groups) if (rendered.mentionedGroupIds.includes(group.id) && !group.canMention) throw new UserGroupMentionNotAllowedError(group.name);
}

/** Realm.WILDCARD_MENTION_THRESHOLD: above this many subscribers (or participants) wildcards need permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

declare const checkedBrand: unique symbol;

/**
 * A send that passed checkSendMessage: the facts it was checked on and what they amount to (the
 * normalized content, its rendering, where it goes). Only checkSendMessage makes one (the brand),
 * so the message decider, which takes a CheckedMessage, never sees an unchecked send, and the
 * checks (and the Markdown rendering) run once per send.
 */
export type CheckedMessage = {
  readonly facts: SendMessageFacts;
  readonly content: string;
  readonly rendered: RenderedMessage;
  readonly target: { kind: 'channel'; channel: ChannelFacts; topic: string } | { kind: 'direct'; participants: UserFacts[] };
  readonly [checkedBrand]: true;
};

/** Addressee.for_private / for_user_ids: every named user must exist ("Invalid email 'x'", "Invalid user ID n"). */
function resolveDirectRecipients(addressee: Extract<Addressee, { kind: 'direct' }>, facts: SendMessageFacts): UserFacts[] {
  const { recipients } = addressee;
  if ('emails' in recipients) {
    return recipients.emails.map((email) => {
      const user = facts.directory.byEmail[email.toLowerCase()];
      if (!user) throw invalidEmail(email);
      return user;
    });
  }
  return recipients.ids.map((id) => {
    const user = facts.directory.byId[id];
    if (!user) throw invalidUserId(id);
    return user;
  });
}

/**
 * zerver/actions/message_send.py check_can_send_direct_message: bots, and conversations with only
 * bots or oneself, are exempt. Otherwise someone of the conversation (the sender included) must be
 * in direct_message_permission_group, and a sender outside direct_message_initiator_group may
 * only write where the conversation already exists.
 */
export function checkCanSendDirectMessage(sender: UserFacts, recipients: UserFacts[], policy: DirectMessagePolicyFacts | undefined): void {
  if (!policy || sender.isBot) return;
  if (recipients.every((u) => u.isBot || u.userId === sender.userId)) return;
  const { permissionGroup, initiatorGroup } = policy;
  if (![sender, ...recipients].some((u) => isSystemGroupMember(permissionGroup, u.role))) {
    throw permissionGroup === 'role:nobody' ? directMessagesDisabled() : directMessageNotAuthorized();
  }
  if (isSystemGroupMember(initiatorGroup, sender.role)) return;
  if (!policy.conversationExists) throw directMessageInitiationNotAllowed();
}

/** validate_stream_name_with_pm_notification / validate_stream_id_with_pm_notification. */
function resolveChannel(addressee: Extract<Addressee, { kind: 'channel' }>, facts: SendMessageFacts): ChannelFacts {
  if ('name' in addressee.channel) {
    const name = checkChannelName(normalizeChannelName(addressee.channel.name));
    if (!facts.channel || facts.channel.name.toLowerCase() !== name.toLowerCase()) throw channelDoesNotExist(escapeHtml(name));
    return facts.channel;
  }
  if (!facts.channel || facts.channel.streamId !== addressee.channel.id) throw channelIdDoesNotExist(addressee.channel.id);
  return facts.channel;
}

/** zerver/lib/streams.py access_stream_for_send_message (can_send_message_group, then content access). */
function checkMayPost(channel: ChannelFacts, facts: SendMessageFacts): void {
  const { sender } = facts;
  if (!facts.senderMayPost) throw noPermissionToPost();
  if (channel.isArchived) throw notAuthorizedToSend(channel.name);
  if (channel.isWebPublic) return;
  if (!channel.inviteOnly && sender.role !== 'guest') return;
  if (facts.subscriberIds.includes(sender.userId)) return;
  if (sender.isBot && facts.botOwnerSubscribed) return;
  throw notAuthorizedToSend(channel.name);
}

/**
 * check_send_message up to the point of saving, in Zulip's order: the addressee (type, to, topic),
 * the named users, the content, the channel and the sender's right to post there, the channel's
 * topics policy (no empty topic under disable_empty_topic), the recipients' state, then the
 * rendering and its wildcard mentions. Pure: it throws Zulip's error or returns what will be sent.
 * The facts are not to be changed once checked (the result keeps them).
 */
export function checkSendMessage(facts: SendMessageFacts): CheckedMessage {
  const addressee = parseAddressee(facts.type, facts.to, facts.topic);
  const named = addressee.kind === 'direct' ? resolveDirectRecipients(addressee, facts) : [];
  const content = normalizeContent(facts.content, facts.maxMessageLength);
  let target: CheckedMessage['target'];
  if (addressee.kind === 'channel') {
    const topic = truncateTopic(addressee.topic);
    const channel = resolveChannel(addressee, facts);
    checkMayPost(channel, facts);
    if (facts.topicsPolicy === 'disable_empty_topic' && topic === '') throw messagesNotAllowedInEmptyTopic(facts.emptyTopicDisplayName);
    if (facts.topicsPolicy === 'empty_topic_only' && topic !== '') throw topicsNotAllowed(facts.emptyTopicDisplayName);
    target = { kind: 'channel', channel, topic };
  } else {
    for (const user of named) if (!user.isActive) throw userNoLongerActive(user.email);
    checkCanSendDirectMessage(facts.sender, named, facts.directMessagePolicy);
    const byId = new Map([...named, facts.sender].map((u) => [u.userId, u]));
    target = { kind: 'direct', participants: directParticipants(facts.sender.userId, named.map((u) => u.userId)).map((id) => byId.get(id)!) };
  }
  const rendered = renderMessage(content, {
    users: facts.mentionables.map((u) => ({ id: u.userId, fullName: u.fullName, isActive: u.isActive })),
    channels: facts.linkableChannels,
    emptyTopicDisplayName: facts.emptyTopicDisplayName,
    linkifiers: facts.linkifiers,
    groups: facts.mentionableGroups,
  });
  checkGroupMentionsAllowed(rendered, facts.mentionableGroups);
  if (target.kind === 'channel') {
    if (rendered.streamWildcard && facts.subscriberIds.length > WILDCARD_MENTION_THRESHOLD && !facts.canMentionManyUsers) {
      throw streamWildcardMentionNotAllowed();
    }
    const participants = new Set([...facts.topicParticipantIds, facts.sender.userId]);
    if (rendered.topicWildcard && participants.size > WILDCARD_MENTION_THRESHOLD && !facts.canMentionManyUsers) {
      throw topicWildcardMentionNotAllowed();
    }
  }
  return { facts, content, rendered, target } as CheckedMessage;
}
