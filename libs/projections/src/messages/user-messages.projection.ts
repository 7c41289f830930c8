import type { RecordedEvent, UserMessageChange, UserMessageRow, UserMessageStorePort } from '@app/application';
import {
  directConversationKey,
  MESSAGE_FLAG_BITS as F,
  type MessageContentEdited,
  type MessageDeleted,
  type MessageFlagsChanged,
  type MessageSent,
  type MessagesMoved,
  type ReactionAdded,
  type ReactionRemoved,
  selectionConditions,
  unixSeconds,
} from '@app/domain';
import type { BulkProjection } from '../shared/bulk-projection';
import type { Recorded } from '../shared/projection';

/**
 * The rows a send creates (zerver/actions/message_send.py create_user_messages): every
 * recipient gets one, `is_private` for direct messages, `stream_wildcard_mentioned` for all on a
 * channel wildcard, and `read`, `mentioned`, `topic_wildcard_mentioned` for the users named.
 */
export function rowsOf(sent: MessageSent['data']): UserMessageRow[] {
  let base = 0;
  if (sent.recipient.type === 'direct') base |= F.is_private;
  if (sent.streamWildcardMentioned) base |= F.stream_wildcard_mentioned;
  const read = new Set(sent.readUserIds);
  const mentioned = new Set(sent.mentionedUserIds);
  const topicWildcard = new Set(sent.topicWildcardMentionedUserIds);
  const alerted = new Set(sent.alertWordUserIds ?? []);
  return sent.recipientIds.map((userId) => {
    let flags = base;
    if (alerted.has(userId)) flags |= F.has_alert_word;
    if (read.has(userId)) flags |= F.read;
    if (mentioned.has(userId)) flags |= F.mentioned;
    if (topicWildcard.has(userId)) flags |= F.topic_wildcard_mentioned;
    return { userId, flags };
  });
}

type UserMessageEvent = MessageSent | MessageFlagsChanged | MessagesMoved | MessageContentEdited | MessageDeleted | ReactionAdded | ReactionRemoved;

/** Whether the per-user message state follows this event (checked at run time, so the switch below narrows soundly). */
const isUserMessageEvent = (event: RecordedEvent): event is Recorded<UserMessageEvent> => (USER_MESSAGE_EVENT_TYPES as readonly string[]).includes(event.type);

/** What an event changes in the per-user message state (pure); nothing for an event it does not follow. */
export function userMessageChanges(event: RecordedEvent): UserMessageChange[] {
  if (!isUserMessageEvent(event)) return [];
  switch (event.type) {
    case 'MessageFlagsChanged':
      return [flagsChange(event.data)];
    case 'MessagesMoved':
      return [movedChange(event.data)];
    case 'MessageContentEdited':
      return [editedChange(event.data)];
    case 'MessageDeleted':
      return [{ type: 'messages-deleted', messageIds: [event.data.messageId] }];
    case 'ReactionAdded':
      return [...reactedChange(event.data), { type: 'reactions-counted', messageId: event.data.messageId, delta: 1 }];
    case 'ReactionRemoved':
      return [{ type: 'reactions-counted', messageId: event.data.messageId, delta: -1 }];
    case 'MessageSent':
      return [sentChange(event.data)];
  }
}

function sentChange(sent: MessageSent['data']): UserMessageChange {
  const { recipient } = sent;
  return {
    type: 'message-added',
    message: {
      id: sent.messageId,
      realmId: sent.realmId,
      senderId: sent.senderId,
      streamId: recipient.type === 'stream' ? recipient.streamId : null,
      topic: recipient.type === 'stream' ? recipient.topic : null,
      dmKey: recipient.type === 'direct' ? directConversationKey(recipient.participantIds) : null,
      hasLink: sent.hasLink,
      hasImage: sent.hasImage,
      hasAttachment: sent.hasAttachment,
      searchText: sent.content,
    },
    rows: rowsOf(sent),
  };
}

/**
 * check_add_reaction's create_historical_user_messages: reacting to a message without a row
 * creates one flagged `read | historical` (adding `read` to it changes nothing else).
 */
function reactedChange(reacted: ReactionAdded['data']): UserMessageChange[] {
  if (!reacted.historical) return [];
  return [{ type: 'flags-changed', userId: reacted.userId, selector: { messageIds: [reacted.messageId], createHistorical: [reacted.messageId] }, op: 'add', mask: F.read }];
}

function flagsChange(changed: MessageFlagsChanged['data']): UserMessageChange {
  return { type: 'flags-changed', userId: changed.userId, selector: selectionConditions(changed.selection), op: changed.op, mask: F[changed.flag] };
}

/**
 * A move is one bulk change, whatever its size: the index's channel and topic of every moved id;
 * for a move between channels, the rows of users losing them go and users gaining them get rows
 * flagged read (do_update_message, bulk_insert_all_ums).
 */
function movedChange(moved: MessagesMoved['data']): UserMessageChange {
  const change: UserMessageChange = {
    type: 'messages-moved', messageIds: moved.messageIds, streamId: moved.streamId, topic: moved.topic,
    history: { userId: moved.editorId, timestamp: unixSeconds(moved.at), targetMessageId: moved.targetMessageId },
  };
  if (moved.userIdsLosingRows.length > 0) change.removeRowsOf = moved.userIdsLosingRows;
  if (moved.userIdsGainingRows.length > 0) change.addRows = { userIds: moved.userIdsGainingRows, flags: F.read };
  return change;
}

function editedChange(edited: MessageContentEdited['data']): UserMessageChange {
  return {
    type: 'message-edited',
    messageId: edited.messageId,
    searchText: edited.content,
    hasLink: edited.hasLink,
    hasImage: edited.hasImage,
    hasAttachment: edited.hasAttachment,
    mentionedUserIds: edited.mentionedUserIds,
    streamWildcardMentioned: edited.streamWildcardMentioned,
    topicWildcardMentionedUserIds: edited.topicWildcardMentionedUserIds,
    ...(edited.alertWordUserIds || edited.prevAlertWordUserIds
      ? { alertWords: { userIds: edited.alertWordUserIds ?? [], previousUserIds: edited.prevAlertWordUserIds ?? [] } }
      : {}),
    ...(edited.prevMentionedUserIds && edited.prevTopicWildcardMentionedUserIds && edited.prevStreamWildcardMentioned !== undefined
      ? {
          previouslyMentionedUserIds: [...new Set([...edited.prevMentionedUserIds, ...edited.prevTopicWildcardMentionedUserIds])].sort((a, b) => a - b),
          previousStreamWildcard: edited.prevStreamWildcardMentioned,
        }
      : {}),
  };
}

export const USER_MESSAGES_PROJECTION = 'user_messages';
export const USER_MESSAGE_EVENT_TYPES = ['MessageSent', 'MessageFlagsChanged', 'MessagesMoved', 'MessageContentEdited', 'MessageDeleted', 'ReactionAdded', 'ReactionRemoved'] as const;

/** The per-user message state as a bulk projection over a UserMessageStorePort. */
export function userMessagesProjection(store: UserMessageStorePort): BulkProjection {
  return {
    name: USER_MESSAGES_PROJECTION,
    handles: USER_MESSAGE_EVENT_TYPES,
    prepare: () => store.prepare(),
    apply: (events, upTo) =>
      store.apply(
        events.map((event) => ({ position: event.position, changes: userMessageChanges(event) })),
        { name: USER_MESSAGES_PROJECTION, position: upTo },
      ),
  };
}
