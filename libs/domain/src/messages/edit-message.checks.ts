import type { GroupSetting } from '../shared/system-groups';
import { effectiveTopicsPolicy } from '../channels/channels.events';
import { pythonStrip, unprintablePosition } from '../shared/printable-text';
import { unixSeconds } from '../shared/unix-seconds';
import { isInGroupSetting } from './group-membership';
import { normalizeContent } from './content.rules';
import {
  cannotChangeContentWhileChangingChannel,
  channelEditTimeLimitPassed,
  directMessagesCannotBeMoved,
  directMessagesCannotHaveTopics,
  editTimeLimitPassed,
  generalChatCannotBeResolved,
  invalidChannelId,
  invalidPropagateModeWithoutTopicEdit,
  invalidTopicCharacter,
  messageEditingDisabled,
  messagesNotAllowedInEmptyTopic,
  topicsNotAllowed,
  moveMessagesTimeLimitExceeded,
  noPermissionToEditMessage,
  noPermissionToMoveMessage,
  noPermissionToPost,
  noPermissionToResolveTopics,
  nothingToChange,
  previousContentMismatched,
  streamWildcardMentionNotAllowed,
  topicEditTimeLimitPassed,
  topicWildcardMentionNotAllowed,
} from './messages.errors';
import type { PropagateMode } from './messages.events';
import { pyRstrip } from './text.rules';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../shared/empty-topic';
import { RESOLVED_TOPIC_PREFIX, truncateTopic } from './topic.rules';
import { renderMessage, type RenderedMessage } from './rendering/render-message';
import type { EditChannelFacts, EditMessageFacts } from './edit-message.facts';
import type { UserFacts } from './send-message.facts';
import { checkGroupMentionsAllowed, WILDCARD_MENTION_THRESHOLD } from './send-message.checks';

/** The grace Zulip adds to every edit and move time limit (edit_limit_buffer, message_move_limit_buffer). */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** What a message's stream says about it (see edit-message.decider.ts). */
export type EditableMessage = { senderId: number; sentAt: number; type: 'stream' | 'private'; content: string; renderedContent: string };

/** A checked edit: what changes, in Zulip's StreamMessageEditRequest terms. */
export type CheckedEdit = {
  content: { content: string; rendered: RenderedMessage } | null;
  move: {
    origStreamId: number;
    origTopic: string;
    targetChannel: EditChannelFacts;
    topic: string;
    isTopicEdited: boolean;
    isStreamEdited: boolean;
    resolution: 'resolved' | 'unresolved' | null;
    propagateMode: PropagateMode;
    messageIds: number[];
    movedAllVisibleMessages: boolean;
  } | null;
};

const isModerator = (user: UserFacts) => user.role === 'owner' || user.role === 'administrator' || user.role === 'moderator';
const isRealmAdmin = (user: UserFacts) => user.role === 'owner' || user.role === 'administrator';
const inGroup = (user: UserFacts, setting: GroupSetting) => isInGroupSetting(user, setting);

/** Python's str.lstrip(chars): every leading character that is one of `chars`. */
const lstripChars = (text: string, chars: string) => {
  let i = 0;
  while (i < text.length && chars.includes(text[i])) i++;
  return text.slice(i);
};

/**
 * build_message_edit_request's topic_resolved / topic_unresolved: "✔ " + the original topic
 * resolves it; the original topic without its "✔ " prefix(es) unresolves it. `topic` is the new
 * topic as sent, stripped ("general chat" read as the empty topic), before truncation.
 */
export function topicResolution(origTopic: string, topic: string): 'resolved' | 'unresolved' | null {
  const target = truncateTopic(topic);
  if (target.startsWith(RESOLVED_TOPIC_PREFIX) && !origTopic.startsWith(RESOLVED_TOPIC_PREFIX) && topic.slice(RESOLVED_TOPIC_PREFIX.length) === origTopic) return 'resolved';
  if (origTopic.startsWith(RESOLVED_TOPIC_PREFIX) && !target.startsWith(RESOLVED_TOPIC_PREFIX) && lstripChars(origTopic, RESOLVED_TOPIC_PREFIX) === target) return 'unresolved';
  return null;
}

/** The topic an edit names, as check_update_message reads it: stripped, "general chat" as the empty topic. */
export function editedTopic(raw: string): string {
  const topic = pythonStrip(raw);
  return topic === EMPTY_TOPIC_FALLBACK_NAME ? '' : topic;
}

/** Whether a move may need the change_all time limit check (a non-moderator's change_all that does not only resolve or unresolve). */
export function mayNeedChangeAllTimeLimit(editor: UserFacts, request: EditMessageFacts['request'], origTopic: string): boolean {
  if (request.propagateMode !== 'change_all' || isModerator(editor)) return false;
  return request.topic === undefined || topicResolution(origTopic, editedTopic(request.topic)) === null;
}

/** zerver/lib/streams.py can_move_messages_within_channel. */
function canMoveWithinChannel(user: UserFacts, channel: EditChannelFacts): boolean {
  if (isRealmAdmin(user) || inGroup(user, channel.groupSettings.can_administer_channel_group)) return true;
  return inGroup(user, channel.groupSettings.can_move_messages_within_channel_group);
}

/** zerver/lib/streams.py can_edit_topic: the organization's can_move_messages_between_topics_group, or the channels' own permission. */
export function canEditTopic(user: UserFacts, facts: Pick<EditMessageFacts, 'realmGroups'>, orig: EditChannelFacts, target: EditChannelFacts): boolean {
  if (inGroup(user, { system: facts.realmGroups.can_move_messages_between_topics_group })) return true;
  if (canMoveWithinChannel(user, orig)) return true;
  return orig.streamId !== target.streamId && canMoveWithinChannel(user, target);
}

/** zerver/lib/streams.py can_resolve_topics. */
export function canResolveTopics(user: UserFacts, facts: Pick<EditMessageFacts, 'realmGroups'>, orig: EditChannelFacts, target: EditChannelFacts): boolean {
  if (inGroup(user, { system: facts.realmGroups.can_resolve_topics_group })) return true;
  if (inGroup(user, orig.groupSettings.can_resolve_topics_group)) return true;
  return orig.streamId !== target.streamId && inGroup(user, target.groupSettings.can_resolve_topics_group);
}

/** zerver/lib/streams.py can_move_messages_out_of_channel. */
export function canMoveMessagesOutOfChannel(user: UserFacts, facts: Pick<EditMessageFacts, 'realmGroups'>, channel: EditChannelFacts): boolean {
  if (isRealmAdmin(user)) return true;
  if (inGroup(user, { system: facts.realmGroups.can_move_messages_between_channels_group })) return true;
  if (inGroup(user, channel.groupSettings.can_administer_channel_group)) return true;
  return inGroup(user, channel.groupSettings.can_move_messages_out_of_channel_group);
}

/** validate_user_can_edit_message: the organization allows editing, the editor sent it, within the limit (+ 20 s). */
function checkCanEditContent(message: EditableMessage, facts: EditMessageFacts): void {
  if (!facts.settings.allow_message_editing) throw messageEditingDisabled();
  if (message.senderId !== facts.editor.userId) throw noPermissionToEditMessage();
  const limit = facts.settings.message_content_edit_limit_seconds;
  if (limit !== null && unixSeconds(facts.now) - message.sentAt > limit + EDIT_LIMIT_BUFFER_SECONDS) throw editTimeLimitPassed();
}

/**
 * check_time_limit_for_change_all_propagate_mode: a change_all move by a non-moderator must be
 * allowed for every message of the topic (the editor's accessible part of it); otherwise
 * MOVE_MESSAGES_TIME_LIMIT_EXCEEDED tells the client from which message on it may move them.
 */
function checkChangeAllTimeLimit(facts: EditMessageFacts, isTopicEdited: boolean, isStreamEdited: boolean): void {
  const limits: number[] = [];
  const within = facts.settings.move_messages_within_stream_limit_seconds;
  const between = facts.settings.move_messages_between_streams_limit_seconds;
  if (isTopicEdited && within !== null) limits.push(within + EDIT_LIMIT_BUFFER_SECONDS);
  if (isStreamEdited && between !== null) limits.push(between + EDIT_LIMIT_BUFFER_SECONDS);
  if (limits.length === 0) return;
  const oldestAllowed = unixSeconds(facts.now) - Math.min(...limits);
  const firstRecent = facts.firstMessageIdSentAfter[oldestAllowed];
  if (firstRecent === undefined) throw new Error(`missing fact: firstMessageIdSentAfter[${oldestAllowed}]`);
  const allowed = firstRecent === null ? [] : facts.topicMessageIds.filter((id) => id >= firstRecent);
  if (allowed.length === facts.topicMessageIds.length) return;
  throw moveMessagesTimeLimitExceeded(allowed[0] ?? null, allowed.length, facts.topicMessageIds.length);
}

/** The cutoffs check_time_limit_for_change_all_propagate_mode may compare send times with (see EditMessageFacts.firstMessageIdSentAfter). */
export function changeAllTimeLimitCutoffs(settings: EditMessageFacts['settings'], now: string): number[] {
  const limits = [settings.move_messages_within_stream_limit_seconds, settings.move_messages_between_streams_limit_seconds].filter((l): l is number => l !== null);
  return [...new Set(limits.map((limit) => unixSeconds(now) - (limit + EDIT_LIMIT_BUFFER_SECONDS)))];
}

/** The ids a move takes (update_messages_for_topic_edit): the target, and later or all accessible messages of its topic. */
function movedMessageIds(facts: EditMessageFacts, mode: PropagateMode): number[] {
  const ids = new Set<number>([facts.messageId]);
  if (mode === 'change_later') for (const id of facts.topicMessageIds) if (id > facts.messageId) ids.add(id);
  if (mode === 'change_all') for (const id of facts.topicMessageIds) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/**
 * check_update_message up to the point of saving, in Zulip's order: content permission, topic
 * normalisation, validate_message_edit_payload, build_message_edit_request, the topic / resolve /
 * move permissions and time limits, the rendering and its wildcard mentions. Pure.
 */
export function checkEditMessage(message: EditableMessage, facts: EditMessageFacts): CheckedEdit {
  const { request, editor } = facts;
  const mode = request.propagateMode as PropagateMode;
  if (request.content !== undefined) checkCanEditContent(message, facts);
  const origTopic = facts.location?.topic ?? '';
  let topic = request.topic;
  if (topic !== undefined) {
    topic = editedTopic(topic);
    if (topic === origTopic) topic = undefined;
  }
  let streamId = request.streamId;
  if (streamId !== undefined && facts.location !== null && streamId === facts.location.streamId) streamId = undefined;

  // validate_message_edit_payload
  if (topic === undefined && request.content === undefined && streamId === undefined) throw nothingToChange();
  if (message.type !== 'stream') {
    if (streamId !== undefined) throw directMessagesCannotBeMoved();
    if (topic !== undefined) throw directMessagesCannotHaveTopics();
  }
  if (mode !== 'change_one' && topic === undefined && streamId === undefined) throw invalidPropagateModeWithoutTopicEdit();
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_FALLBACK_NAME}`) throw generalChatCannotBeResolved();
  if (topic !== undefined) {
    const position = unprintablePosition(topic);
    if (position !== null) throw invalidTopicCharacter(position);
  }
  if (streamId !== undefined && request.content !== undefined) throw cannotChangeContentWhileChangingChannel();
  if (request.prevContentSha256 !== undefined && request.prevContentSha256 !== facts.currentContentSha256) throw previousContentMismatched();

  // build_message_edit_request
  let content: string | null = null;
  if (request.content !== undefined) content = normalizeContent(pyRstrip(request.content) === '' ? '(deleted)' : request.content, facts.maxMessageLength);
  let move: CheckedEdit['move'] = null;
  const orig = facts.origChannel;
  if (message.type === 'stream' && orig !== null && (topic !== undefined || streamId !== undefined)) {
    const isTopicEdited = topic !== undefined;
    const targetTopic = isTopicEdited ? truncateTopic(topic!) : origTopic;
    const resolution = isTopicEdited ? topicResolution(origTopic, topic!) : null;
    const isStreamEdited = streamId !== undefined;
    let target = orig;
    if (isStreamEdited) {
      if (facts.targetChannel === null || facts.targetChannel.streamId !== streamId) throw invalidChannelId();
      target = facts.targetChannel;
    }
    // get_stream_topics_policy of the channel the messages end up in.
    const topicsPolicy = effectiveTopicsPolicy(target.topicsPolicy, facts.settings.topics_policy);
    if (targetTopic === '' && topicsPolicy === 'disable_empty_topic') throw messagesNotAllowedInEmptyTopic(facts.emptyTopicDisplayName);
    if (targetTopic !== '' && topicsPolicy === 'empty_topic_only') throw topicsNotAllowed(facts.emptyTopicDisplayName);
    const now = unixSeconds(facts.now);
    if (isTopicEdited) {
      if (resolution !== null) {
        if (!canResolveTopics(editor, facts, orig, target)) throw noPermissionToResolveTopics();
      } else {
        if (!canEditTopic(editor, facts, orig, target)) throw noPermissionToEditMessage();
        const limit = facts.settings.move_messages_within_stream_limit_seconds;
        if (limit !== null && !isModerator(editor) && now - message.sentAt > limit + EDIT_LIMIT_BUFFER_SECONDS) throw topicEditTimeLimitPassed();
      }
    }
    if (isStreamEdited) {
      if (!canMoveMessagesOutOfChannel(editor, facts, orig)) throw noPermissionToMoveMessage();
      if (!inGroup(editor, target.groupSettings.can_send_message_group)) throw noPermissionToPost();
      const limit = facts.settings.move_messages_between_streams_limit_seconds;
      if (limit !== null && !isModerator(editor) && now - message.sentAt > limit + EDIT_LIMIT_BUFFER_SECONDS) throw channelEditTimeLimitPassed();
    }
    if (mode === 'change_all' && !isModerator(editor) && resolution === null) checkChangeAllTimeLimit(facts, isTopicEdited, isStreamEdited);
    const messageIds = movedMessageIds(facts, mode);
    const moved = new Set(messageIds);
    move = {
      origStreamId: orig.streamId,
      origTopic,
      targetChannel: target,
      topic: targetTopic,
      isTopicEdited,
      isStreamEdited,
      resolution,
      propagateMode: mode,
      messageIds,
      movedAllVisibleMessages: mode === 'change_all' || facts.topicMessageIds.every((id) => moved.has(id)),
    };
  }

  let rendered: RenderedMessage | null = null;
  if (content !== null) {
    rendered = renderMessage(content, {
      users: facts.mentionables.map((u) => ({ id: u.userId, fullName: u.fullName, isActive: u.isActive })),
      channels: facts.linkableChannels,
      emptyTopicDisplayName: facts.emptyTopicDisplayName,
      linkifiers: facts.linkifiers,
      groups: facts.mentionableGroups,
    });
    checkGroupMentionsAllowed(rendered, facts.mentionableGroups);
    if (message.type === 'stream' && orig !== null) {
      if (rendered.streamWildcard && orig.subscriberIds.length > WILDCARD_MENTION_THRESHOLD && !facts.canMentionManyUsers) throw streamWildcardMentionNotAllowed();
      const participants = new Set([...facts.topicParticipantIds, message.senderId]);
      if (rendered.topicWildcard && participants.size > WILDCARD_MENTION_THRESHOLD && !facts.canMentionManyUsers) throw topicWildcardMentionNotAllowed();
    }
  }
  return { content: content === null ? null : { content, rendered: rendered! }, move };
}
