import { displayTopic, flagsList } from '@app/domain';
import type { UserDocument } from '../users/user.documents';
import type { MessageDocument } from './message.documents';

/** A user as a direct message's display_recipient lists them. */
export type DisplayRecipientUser = { id: number; email: string; full_name: string; is_mirror_dummy: boolean };

/** Zulip's message object (MessageDict.finalize_payload), as GET /messages returns it. */
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
  reactions: unknown[];
  submessages: unknown[];
  avatar_url: string | null;
  is_me_message: boolean;
  topic_links: { text: string; url: string }[];
  last_edit_timestamp?: number;
};

export type MessageFormatContext = {
  /** Users by id: senders and direct message participants (current names, as Zulip hydrates them). */
  users: Map<number, UserDocument>;
  /** Current channel names by id. */
  channelNames: Map<number, string>;
  realmStringId: string;
  applyMarkdown: boolean;
  allowEmptyTopicName: boolean;
};

const unknownUser = (id: number): Pick<UserDocument, 'user_id' | 'email' | 'full_name'> => ({ user_id: id, email: '', full_name: 'Unknown user' });

/** The reader's view of a stored message, with the reader's flags (a bitmask, or null for ["read", "historical"]). */
export function formatMessage(doc: MessageDocument, flags: number | null, context: MessageFormatContext): ApiMessage {
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
    reactions: [],
    submessages: [],
    avatar_url: `/avatar/${doc.sender_id}`,
    is_me_message: doc.is_me_message,
    topic_links: doc.topic_links,
  };
  if (doc.type === 'stream') message.stream_id = doc.stream_id!;
  if (doc.last_edit_timestamp !== null) message.last_edit_timestamp = doc.last_edit_timestamp;
  return message;
}
