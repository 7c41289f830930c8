import { unixSeconds } from '../shared/unix-seconds';
import { isInGroupSetting } from './group-membership';
import { userIdsWithAlertWords } from '../alert-words/alert-words.matcher';
import { isMeMessage } from './content.rules';
import { type CheckedEdit, checkEditMessage, type EditableMessage } from './edit-message.checks';
import type { DeleteMessageFacts, EditMessageFacts } from './edit-message.facts';
import { deleteTimeLimitPassed, invalidMessage, messageAlreadyDeleted, noPermissionToDeleteMessage } from './messages.errors';
import type { MessageState } from './message.decider';
import {
  type MessageContentEdited,
  type MessageDeleted,
  type MessageEditEvent,
  type MessagesMoved,
  type UserTopicVisibilityPolicyChanged,
  VISIBILITY_POLICY,
  type VisibilityPolicy,
} from './messages.events';

/**
 * Editing, moving and deleting a message: the commands of `message-<id>` after it was sent,
 * decided by messageDecider (message.decider.ts) on the stream's one state, MessageState.
 *
 * Stream boundary. Every PATCH /messages/{id} is ONE append to the target message's stream
 * `message-<id>`: its `MessageContentEdited` (if the content changes), its `MessagesMoved` (if
 * the topic or channel changes, naming every moved id, however many), and the topic visibility
 * changes the move carries. The expected revision is the target's, so concurrent edits of one
 * message are serialised (the loser re-reads and re-decides, or fails cleanly), and a combined
 * content + topic edit is atomic. messages.streams.ts planned the move for a
 * `channel_topics-<streamId>` stream; that would split a content + topic edit into two appends to
 * two streams, so the move goes with the target instead. What this gives up: two moves of the
 * same topic through different target messages do not conflict with each other; each names the
 * ids it read, so the later one wins for the messages both name, and a replay gives the same
 * result, as the log orders them.
 *
 * Where a message is (channel, topic) is not folded here: moves naming it may sit in other
 * messages' streams. The handler reads it from the message read model (EditMessageFacts.location).
 */
export type EditMessage = { type: 'EditMessage'; data: EditMessageFacts };
export type DeleteMessage = { type: 'DeleteMessage'; data: DeleteMessageFacts };
const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const { INHERIT, MUTED, UNMUTED, FOLLOWED } = VISIBILITY_POLICY;

/** zerver/actions/message_edit.py get_visibility_policy_after_merge: followed, then unmuted, then inherit over muted. */
export function visibilityPolicyAfterMerge(orig: VisibilityPolicy, target: VisibilityPolicy): VisibilityPolicy {
  if (orig === FOLLOWED || target === FOLLOWED) return FOLLOWED;
  if (orig === UNMUTED || target === UNMUTED) return UNMUTED;
  if (orig === INHERIT || target === INHERIT) return INHERIT;
  return MUTED;
}

function contentEdited(state: MessageState, facts: EditMessageFacts, checked: NonNullable<CheckedEdit['content']>): MessageContentEdited {
  const { rendered, content } = checked;
  // update_user_message_flags: has_alert_word recomputed; the store sets it only on rows that exist.
  const alertWordUserIds = userIdsWithAlertWords(content, facts.alertWords ?? {});
  const alertWords = alertWordUserIds.length > 0 || state.alertWordUserIds.length > 0 ? { alertWordUserIds, prevAlertWordUserIds: state.alertWordUserIds } : {};
  return {
    type: 'MessageContentEdited',
    data: {
      realmId: facts.realmId,
      messageId: facts.messageId,
      editorId: facts.editor.userId,
      prevContent: state.content,
      content,
      prevRenderedContent: state.renderedContent,
      renderedContent: rendered.html,
      isMeMessage: isMeMessage(content),
      hasLink: rendered.hasLink,
      hasImage: rendered.hasImage,
      hasAttachment: rendered.hasAttachment,
      mentionedUserIds: sorted(rendered.mentionedUserIds),
      streamWildcardMentioned: state.type === 'stream' && rendered.streamWildcard,
      topicWildcardMentionedUserIds: state.type === 'stream' && rendered.topicWildcard ? sorted([...facts.topicParticipantIds, state.senderId]) : [],
      prevMentionedUserIds: state.mentions.userIds,
      prevStreamWildcardMentioned: state.mentions.streamWildcard,
      prevTopicWildcardMentionedUserIds: state.mentions.topicWildcardUserIds,
      ...alertWords,
      at: facts.now,
    },
  };
}

/**
 * The move's per-user consequences (do_update_message): rows lost by subscribers of the old
 * channel, past ones included, who are not subscribed to the new one; rows (read) for every subscriber of a new
 * channel with protected history; and, when the editor moved the whole topic as they can see it,
 * the topic visibility policies follow it (merged with the target topic's when it has messages;
 * dropped for users who lose access to a private channel).
 */
function messagesMoved(facts: EditMessageFacts, move: NonNullable<CheckedEdit['move']>): [MessagesMoved, ...UserTopicVisibilityPolicyChanged[]] {
  const target = move.targetChannel;
  const origSubscribers = [...new Set([...(facts.origChannel?.subscriberIds ?? []), ...(facts.origChannelPastSubscriberIds ?? [])])];
  const targetSubscribers = new Set(target.subscriberIds);
  const losing = move.isStreamEdited ? sorted(origSubscribers.filter((id) => !targetSubscribers.has(id))) : [];
  const gaining = move.isStreamEdited && !target.historyPublicToSubscribers ? sorted(target.subscriberIds) : [];
  const moved: MessagesMoved = {
    type: 'MessagesMoved',
    data: {
      realmId: facts.realmId,
      targetMessageId: facts.messageId,
      messageIds: move.messageIds,
      propagateMode: move.propagateMode,
      origStreamId: move.origStreamId,
      origTopic: move.origTopic,
      streamId: target.streamId,
      streamName: target.name,
      topic: move.topic,
      resolution: move.resolution,
      userIdsLosingRows: losing,
      userIdsGainingRows: gaining,
      editorId: facts.editor.userId,
      at: facts.now,
    },
  };
  const changes: UserTopicVisibilityPolicyChanged[] = [];
  if (move.movedAllVisibleMessages) {
    const losingAccess = new Set(target.inviteOnly ? losing : []);
    // Zulip clears the original topic's policies with skip_muted_topics_event (the target's
    // change sends the whole list just after), and sets the target's without it.
    const change = (userId: number, streamId: number, topic: string, oldPolicy: VisibilityPolicy, newPolicy: VisibilityPolicy, skipMutedTopicsEvent: boolean) =>
      changes.push({
        type: 'UserTopicVisibilityPolicyChanged',
        data: { realmId: facts.realmId, userId, streamId, topic, oldPolicy, newPolicy, messageId: null, at: facts.now, skipMutedTopicsEvent },
      });
    const users = sorted([...Object.keys(facts.origTopicPolicies), ...Object.keys(facts.targetTopicPolicies)].map(Number));
    for (const userId of users) {
      const orig = facts.origTopicPolicies[userId] ?? INHERIT;
      const current = facts.targetTopicPolicies[userId] ?? INHERIT;
      if (orig !== INHERIT) change(userId, move.origStreamId, move.origTopic, orig, INHERIT, true);
      if (losingAccess.has(userId)) continue;
      const next = facts.targetTopicHasMessages ? visibilityPolicyAfterMerge(orig, current) : orig;
      // The original topic's row was just removed; when both names are one topic (a case-only
      // rename in the same channel), the target's row is that row, so it is re-created.
      const sameTopic = move.origStreamId === target.streamId && move.origTopic.toLowerCase() === move.topic.toLowerCase();
      const before = sameTopic && orig !== INHERIT ? INHERIT : current;
      if (next !== before) change(userId, target.streamId, move.topic, before, next, false);
    }
  }
  return [moved, ...changes];
}

/**
 * zerver/views/message_edit.py validate_can_delete_message: the organization's
 * can_delete_any_message_group, or the channel's; else only one's own messages (or one's bots'),
 * with can_delete_own_message_group (organization or channel), within the delete limit.
 */
function checkCanDelete(state: MessageState, facts: DeleteMessageFacts): void {
  const { actor } = facts;
  if (isInGroupSetting(actor, { system: facts.canDeleteAnyMessageGroup })) return;
  if (facts.channelGroups && isInGroupSetting(actor, facts.channelGroups.can_delete_any_message_group)) return;
  if (state.senderId !== actor.userId && !facts.senderIsOwnBot) throw noPermissionToDeleteMessage();
  if (!isInGroupSetting(actor, { system: facts.canDeleteOwnMessageGroup })) {
    if (!facts.channelGroups || !isInGroupSetting(actor, facts.channelGroups.can_delete_own_message_group)) throw noPermissionToDeleteMessage();
  }
  if (facts.deleteLimitSeconds === null) return;
  if (unixSeconds(facts.now) - state.sentAt > facts.deleteLimitSeconds) throw deleteTimeLimitPassed();
}

/** An edit's events: the content change, the move and the visibility changes the move carries. */
export function decideEdit(state: MessageState, facts: EditMessageFacts): MessageEditEvent[] {
  if (!state.sent || state.deleted) throw invalidMessage();
  const message: EditableMessage = state;
  const checked = checkEditMessage(message, facts);
  const events: MessageEditEvent[] = [];
  if (checked.content) events.push(contentEdited(state, facts, checked.content));
  if (checked.move) events.push(...messagesMoved(facts, checked.move));
  return events;
}

/** do_delete_messages for one message: who may delete it, then `MessageDeleted`. */
export function decideDelete(state: MessageState, facts: DeleteMessageFacts): [MessageDeleted] | [] {
  if (!state.sent) throw invalidMessage();
  if (state.deleted) {
    if (facts.topicDeletion) return [];
    throw messageAlreadyDeleted();
  }
  if (!facts.topicDeletion) checkCanDelete(state, facts);
  return [
    {
      type: 'MessageDeleted',
      data: {
        realmId: state.realmId, messageId: facts.messageId, senderId: state.senderId, messageType: state.type,
        streamId: facts.location?.streamId ?? null, topic: facts.location?.topic ?? null, actorId: facts.actor.userId, at: facts.now,
      },
    },
  ];
}
