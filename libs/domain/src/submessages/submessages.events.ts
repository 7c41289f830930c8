/** One submessage as Zulip stores it (SubMessage): JSON text `content` of a `msg_type` ("widget" for widgets). */
export type StoredSubmessage = { submessageId: number; senderId: number; msgType: string; content: string };

/**
 * do_add_submessage (POST /submessage): a submessage attached to a message, e.g. a poll vote or a
 * to-do list's new task. The widget's first submessage is not one of these: it is part of the
 * message's own MessageSent (`widget`), as Zulip saves it with the message.
 */
export type SubmessageAdded = {
  type: 'SubmessageAdded';
  data: StoredSubmessage & { realmId: number; messageId: number; at: string };
};

export type SubmessageEvent = SubmessageAdded;

export const SUBMESSAGE_EVENT_TYPES: readonly SubmessageEvent['type'][] = ['SubmessageAdded'];
