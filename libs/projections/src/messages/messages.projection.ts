import { type EditHistoryEntry, MESSAGES, type MessageDocument, USER_TOPICS, type UserTopicDocument, userTopicDocumentId } from '@app/application';
import {
  type MessageContentEdited,
  type MessageDeleted,
  type MessageSent,
  recipientIdOf,
  type UserTopicVisibilityPolicyChanged,
} from '@app/domain';
import { defineProjection, unixSeconds } from '../shared/projection';

/** Messages as GET /messages reads them (the reader-independent part; see MessageDocument). */
export const messagesProjection = defineProjection<MessageDocument, MessageSent | MessageContentEdited | MessageDeleted>({
  name: 'messages',
  collection: {
    name: MESSAGES,
    // Only what queries of documents filter on: the change_all time limit looks up the first
    // message sent after a time (ids grow in send order). Narrows by channel, sender or topic read
    // the message index (UserMessageStorePort), so indexes of those fields here would only be
    // written: three B-trees more per send (issue #23).
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'timestamp', type: 'number', index: false },
    ],
    compoundIndexes: [['realm_id', 'timestamp']],
    // Message ids: the embedded store appends each new document to its table (issue #23).
    integerIds: true,
  },
  // MessagesMoved is not handled here: where a message is lives in the message index, which a move
  // of any size updates with one statement (UserMessageStorePort 'messages-moved', locationsOf);
  // rewriting every moved document would cost a read and a write per message.
  handles: ['MessageSent', 'MessageContentEdited', 'MessageDeleted'],
  idsOf: (e) => [String(e.data.messageId)],
  evolve: (doc, e) => {
    if (e.type === 'MessageDeleted') return null;
    if (e.type === 'MessageContentEdited') return doc && contentEdited(doc, e.data);
    const d = e.data;
    const stream = d.recipient.type === 'stream' ? d.recipient : null;
    return {
      id: d.messageId,
      realm_id: d.realmId,
      sender_id: d.senderId,
      type: stream ? 'stream' : 'private',
      stream_id: stream?.streamId ?? null,
      stream_name: stream?.streamName ?? null,
      subject: stream?.topic ?? '',
      dm_user_ids: d.recipient.type === 'direct' ? [...d.recipient.participantIds] : null,
      recipient_id: recipientIdOf(d.recipient, d.senderId),
      content: d.content,
      rendered_content: d.renderedContent,
      client: d.client,
      timestamp: unixSeconds(d.at),
      is_me_message: d.isMeMessage,
      topic_links: [],
      last_edit_timestamp: null,
    };
  },
});

const withHistory = (doc: MessageDocument, entry: EditHistoryEntry): EditHistoryEntry[] => [entry, ...(doc.edit_history ?? [])];

/** do_update_message for the content: the new content and rendering, an edit_history entry, last_edit_timestamp. */
function contentEdited(doc: MessageDocument, d: MessageContentEdited['data']): MessageDocument {
  const timestamp = unixSeconds(d.at);
  return {
    ...doc,
    content: d.content,
    rendered_content: d.renderedContent,
    is_me_message: d.isMeMessage,
    last_edit_timestamp: timestamp,
    edit_history: withHistory(doc, { user_id: d.editorId, timestamp, prev_content: d.prevContent, prev_rendered_content: d.prevRenderedContent }),
  };
}

/** Users' visibility policies for topics (UserTopic); INHERIT removes the row, as Zulip does. */
export const userTopicsProjection = defineProjection<UserTopicDocument, UserTopicVisibilityPolicyChanged>({
  name: 'user_topics',
  collection: {
    name: USER_TOPICS,
    fields: [
      { name: 'user_id', type: 'number' },
      { name: 'stream_id', type: 'number' },
      { name: 'topic_key', type: 'string' },
      { name: 'visibility_policy', type: 'number' },
    ],
    compoundIndexes: [['stream_id', 'topic_key']],
  },
  handles: ['UserTopicVisibilityPolicyChanged'],
  idsOf: ({ data: d }) => [userTopicDocumentId(d.userId, d.streamId, d.topic)],
  evolve: (_doc, { data: d }) => {
    if (d.newPolicy === 0) return null;
    return {
      user_id: d.userId,
      realm_id: d.realmId,
      stream_id: d.streamId,
      topic_name: d.topic,
      topic_key: d.topic.toLowerCase(),
      visibility_policy: d.newPolicy,
      last_updated: unixSeconds(d.at),
    };
  },
});
