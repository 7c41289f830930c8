import { displayTopic, flagsList, type LinkifierFacts, recipientIdOf, topicLinks } from '@app/domain';
import type { MessageLocation } from '../ports/user-message-store.port';
import type { UserDocument } from '../users/user.documents';
import type { EditHistoryEntry, MessageDocument } from './message.documents';

/** A user as a direct message's display_recipient lists them. */
export type DisplayRecipientUser = { id: number; email: string; full_name: string; is_mirror_dummy: boolean };

/**
 * Zulip's message object (MessageDict.finalize_payload), as GET /messages returns it; the message
 * extensions add their fields (`reactions`, `submessages`: MessageExtension.messageFields).
 */
export type ApiMessage = {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  sender_realm_str: string;
  content: string;
  content_type: 'text/html' | 'text/x-markdown';
  client: string;
  subject: string;
  timestamp: number;
  recipient_id: number;
  type: 'stream' | 'private';
  stream_id?: number;
  display_recipient: string | DisplayRecipientUser[];
  flags: string[];
  avatar_url: string | null;
  is_me_message: boolean;
  topic_links: { text: string; url: string }[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  edit_history?: EditHistoryEntry[];
} & { [extensionField: string]: unknown };

export type MessageFormatContext = {
  /** Users by id: senders and direct message participants (current names, as Zulip hydrates them). */
  users: Map<number, UserDocument>;
  /** Current channel names by id. */
  channelNames: Map<number, string>;
  realmStringId: string;
  applyMarkdown: boolean;
  allowEmptyTopicName: boolean;
  /** Where the messages are now, from the message index (moves do not rewrite documents). */
  locations?: Map<number, MessageLocation>;
  /** What the message extensions add to each message (reactions, submessages: MessageExtensions). */
  extensionFields?: (messageId: number) => Record<string, unknown>;
  /** topic_links of a topic (the organization's linkifiers and raw URLs, as they are now); absent: as stored. */
  topicLinks?: (topic: string) => { text: string; url: string }[];
};

/**
 * A message document as it is now: the channel and topic from the message index (a move updates
 * the index in bulk, not the documents), and its edit_history with the moves merged in, newest
 * first (a content edit and a move made at once are one entry, as Zulip stores them). Idempotent.
 */
export function currentMessage(doc: MessageDocument, location: MessageLocation | undefined): MessageDocument & { last_moved_timestamp?: number } {
  if (!location || doc.type !== 'stream' || location.streamId === null) return doc;
  const moved = location.streamId !== doc.stream_id;
  const history: EditHistoryEntry[] = (doc.edit_history ?? []).map((e) => ({ ...e }));
  for (const { target_message_id: _target, ...move } of location.moves) {
    // Idempotent: a document already brought up to date keeps its entries.
    const recorded = (e: EditHistoryEntry) =>
      e.timestamp === move.timestamp && e.user_id === move.user_id && e.prev_topic === move.prev_topic && e.topic === move.topic && e.prev_stream === move.prev_stream && e.stream === move.stream;
    if (history.some(recorded)) continue;
    const same = history.find((e) => e.timestamp === move.timestamp && e.user_id === move.user_id && 'prev_content' in e && !('prev_topic' in e) && !('prev_stream' in e));
    if (same) Object.assign(same, move);
    else history.push(move);
  }
  history.sort((a, b) => b.timestamp - a.timestamp);
  return {
    ...doc,
    stream_id: location.streamId,
    stream_name: moved ? null : doc.stream_name,
    subject: location.topic ?? doc.subject,
    recipient_id: moved ? recipientIdOf({ type: 'stream', streamId: location.streamId, streamName: '', topic: '' }, doc.sender_id) : doc.recipient_id,
    ...(history.length > 0 ? { edit_history: history } : {}),
    ...(location.lastMovedAt !== null ? { last_moved_timestamp: location.lastMovedAt } : {}),
  };
}

const unknownUser = (id: number): Pick<UserDocument, 'user_id' | 'email' | 'full_name'> => ({ user_id: id, email: '', full_name: 'Unknown user' });

/** The reader's view of a stored message, with the reader's flags (a bitmask, or null for ["read", "historical"]). */
export function formatMessage(stored: MessageDocument, flags: number | null, context: MessageFormatContext): ApiMessage {
  const doc = currentMessage(stored, context.locations?.get(stored.id));
  const sender = context.users.get(doc.sender_id) ?? unknownUser(doc.sender_id);
  const displayRecipient =
    doc.type === 'stream'
      ? (context.channelNames.get(doc.stream_id!) ?? doc.stream_name ?? '')
      : (doc.dm_user_ids ?? []).map((id) => {
          const user = context.users.get(id) ?? unknownUser(id);
          return { id, email: user.email, full_name: user.full_name, is_mirror_dummy: false };
        });
  const message: ApiMessage = {
    id: doc.id,
    sender_id: doc.sender_id,
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    sender_realm_str: context.realmStringId,
    content: context.applyMarkdown ? doc.rendered_content : doc.content,
    content_type: context.applyMarkdown ? 'text/html' : 'text/x-markdown',
    client: doc.client,
    subject: doc.type === 'stream' ? displayTopic(doc.subject, context.allowEmptyTopicName) : '',
    timestamp: doc.timestamp,
    recipient_id: doc.recipient_id,
    type: doc.type,
    display_recipient: displayRecipient,
    flags: flags === null ? ['read', 'historical'] : flagsList(flags),
    ...context.extensionFields?.(doc.id),
    avatar_url: `/avatar/${doc.sender_id}`,
    is_me_message: doc.is_me_message,
    topic_links: doc.type === 'stream' && context.topicLinks ? context.topicLinks(doc.subject) : doc.topic_links,
  };
  if (doc.type === 'stream') message.stream_id = doc.stream_id!;
  if (doc.last_edit_timestamp !== null) message.last_edit_timestamp = doc.last_edit_timestamp;
  // Zulip (feature level 365): last_edit_timestamp for content edits, last_moved_timestamp for
  // moves, and the stored edit_history (newest first) once the message was edited or moved.
  if (doc.last_moved_timestamp !== undefined) message.last_moved_timestamp = doc.last_moved_timestamp;
  if (doc.edit_history !== undefined && doc.edit_history.length > 0) message.edit_history = doc.edit_history;
  return message;
}

/** topic_links for many messages at once: each distinct topic is matched once. */
export function topicLinksOf(linkifiers: LinkifierFacts[]): (topic: string) => { text: string; url: string }[] {
  const memo = new Map<string, { text: string; url: string }[]>();
  return (topic) => {
    let links = memo.get(topic);
    if (!links) memo.set(topic, (links = topicLinks(topic, linkifiers)));
    return links;
  };
}
