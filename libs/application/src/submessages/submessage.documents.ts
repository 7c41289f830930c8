import type { StoredSubmessage } from '@app/domain';

/** A submessage as message objects carry it (SubMessage.get_raw_db_rows: id, message_id, sender_id, msg_type, content). */
export type ApiSubmessage = { id: number; message_id: number; sender_id: number; msg_type: string; content: string };

/**
 * The submessages of one message, by id (Zulip orders them so), absent when there are none.
 * `widget_id`: the widget submessage the message was sent with. A deleted message keeps a
 * tombstone (`deleted`, no submessages), so a submessage recorded after the deletion is not shown.
 */
export type MessageSubmessagesDocument = { message_id: number; realm_id: number; submessages: ApiSubmessage[]; widget_id?: number; deleted?: true };

export const MESSAGE_SUBMESSAGES = 'message_submessages';

export const apiSubmessageOf = (messageId: number, s: StoredSubmessage): ApiSubmessage => ({
  id: s.submessageId,
  message_id: messageId,
  sender_id: s.senderId,
  msg_type: s.msgType,
  content: s.content,
});
