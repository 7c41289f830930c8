import {
  expectedExactlyOneChannel,
  invalidChannelDataType,
  invalidMessageType,
  invalidRecipientsDataType,
  messageMustHaveRecipients,
  missingChannel,
  missingTopic,
  mixedRecipientTypes,
} from './messages.errors';
import { normalizeTopic } from './topic.rules';

/** The values of POST /messages `type`: `direct` (and its deprecated alias `private`), `channel` (and `stream`). */
export const MESSAGE_TYPES = ['direct', 'private', 'stream', 'channel'] as const;
export type MessageTypeParam = (typeof MESSAGE_TYPES)[number];

/** Where a message goes, as the request names it (before any lookup). */
export type Addressee =
  | { kind: 'channel'; channel: { name: string } | { id: number }; topic: string }
  | { kind: 'direct'; recipients: { emails: string[] } | { ids: number[] } };

/**
 * Whether `text` may be JSON: a string, list or object (which JSON.parse still has to check), or
 * as a whole a literal or a number. Anything else is not JSON, so names and e-mail addresses skip
 * JSON.parse and its throw (a thrown SyntaxError cost about 13 µs a send) — also those starting
 * like a literal or a number ("news", "team", "2024 plans", "frank@…").
 */
const MAY_BE_JSON = /^\s*(?:["[{]|(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*$)/;

const tryJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  if (!MAY_BE_JSON.test(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * zerver/actions/message_send.py extract_stream_indicator: a channel id (JSON integer), a name
 * (plain or JSON-encoded), or either inside a JSON list of one.
 */
export function extractStreamIndicator(to: string): string | number {
  const parsed = tryJson(to);
  if (!parsed.ok) return to;
  let data = parsed.value;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw expectedExactlyOneChannel();
    data = data[0];
  }
  if (typeof data === 'string') return data;
  if (isInteger(data)) return data;
  throw invalidChannelDataType();
}

/**
 * zerver/actions/message_send.py extract_private_recipients: a JSON list of user ids or of
 * emails, or emails as comma-separated text. Emails are stripped, blanks dropped, duplicates
 * removed; the result is empty when nothing was named.
 */
export function extractPrivateRecipients(to: string): { emails: string[] } | { ids: number[] } {
  const parsed = tryJson(to);
  let data: unknown = parsed.ok ? parsed.value : to;
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw invalidRecipientsDataType();
  if (data.length === 0) return { ids: [] };
  if (typeof data[0] === 'string') {
    if (!data.every((e) => typeof e === 'string')) throw mixedRecipientTypes();
    return { emails: [...new Set((data as string[]).map((e) => e.trim()))].filter((e) => e !== '') };
  }
  if (!isInteger(data[0])) throw invalidRecipientsDataType();
  if (!data.every(isInteger)) throw mixedRecipientTypes();
  return { ids: [...new Set(data as number[])] };
}

/**
 * What send_message_backend and Addressee.legacy_build make of `type`, `to` and `topic`, with
 * their errors in their order: the recipient data type, then "Missing channel" / "Missing topic"
 * and the topic's characters for channel messages, "Message must have recipients" for direct ones.
 */
export function parseAddressee(type: MessageTypeParam, to: string | undefined, topic: string | undefined): Addressee {
  const isChannel = type === 'stream' || type === 'channel';
  if (!isChannel && type !== 'direct' && type !== 'private') throw invalidMessageType();
  if (isChannel) {
    const indicator = to === undefined ? undefined : extractStreamIndicator(to);
    if (indicator === undefined) throw missingChannel();
    if (topic === undefined) throw missingTopic();
    const normalized = normalizeTopic(topic);
    return { kind: 'channel', channel: typeof indicator === 'number' ? { id: indicator } : { name: indicator }, topic: normalized };
  }
  const recipients = to === undefined ? { ids: [] } : extractPrivateRecipients(to);
  const count = 'emails' in recipients ? recipients.emails.length : recipients.ids.length;
  if (count === 0) throw messageMustHaveRecipients();
  return { kind: 'direct', recipients };
}

/**
 * The participants of a direct message conversation (zerver/lib/recipient_users.py
 * get_recipient_from_user_profiles): the recipients plus the sender. The sender listed among
 * the recipients is ignored unless alone (a message to oneself).
 */
export const directParticipants = (senderId: number, recipientIds: number[]): number[] =>
  [...new Set([...recipientIds, senderId])].sort((a, b) => a - b);

/** A conversation's key: its participants' ids, ascending, comma-separated ("5" for oneself). */
export const directConversationKey = (participantIds: number[]): string =>
  [...new Set(participantIds)].sort((a, b) => a - b).join(',');
