/**
 * Where a scheduled message goes, as Zulip's ScheduledMessage.to_dict reports it: a channel and a
 * topic, or the other participants of a direct message (the sender alone for a message to self).
 */
export type ScheduledRecipient = { type: 'stream'; streamId: number; topic: string } | { type: 'private'; userIds: number[] };

/** What a scheduled message will send, and when (`deliverAt`: UNIX seconds, as the API writes it). */
export type ScheduledMessageBody = {
  recipient: ScheduledRecipient;
  content: string;
  renderedContent: string;
  deliverAt: number;
  /** The client that scheduled (or last edited) it: the sending client of the delivered message. */
  client: string;
};

type Header = { scheduledMessageId: number; realmId: number; senderId: number; at: string };

/** do_schedule_messages. */
export type ScheduledMessageCreated = { type: 'ScheduledMessageCreated'; data: Header & ScheduledMessageBody & { readBySender: boolean } };

/** edit_scheduled_message: the whole body before and after; `wasFailed` when the edit revived a failed one. */
export type ScheduledMessageEdited = {
  type: 'ScheduledMessageEdited';
  data: Header & { old: ScheduledMessageBody; new: ScheduledMessageBody; wasFailed: boolean };
};

/** delete_scheduled_message. */
export type ScheduledMessageDeleted = { type: 'ScheduledMessageDeleted'; data: Header };

/**
 * The delivery claimed the scheduled message and allocated the id of the message it sends. Only
 * one claim is ever accepted per scheduled message, so exactly one message id can ever be sent
 * for it; the message itself is appended to `message-<messageId>` afterwards (see the decider).
 */
export type ScheduledMessageDeliveryClaimed = { type: 'ScheduledMessageDeliveryClaimed'; data: Header & { messageId: number; deliverAt: number } };

/** The message `messageId` exists: the scheduled message was sent. */
export type ScheduledMessageDelivered = { type: 'ScheduledMessageDelivered'; data: Header & { messageId: number } };

/**
 * The delivery failed (try_deliver_one_scheduled_message): the message stays listed with
 * `failed: true` and `failureMessage`; `notifySender` when Notification Bot tells the sender.
 */
export type ScheduledMessageDeliveryFailed = {
  type: 'ScheduledMessageDeliveryFailed';
  data: Header & { failureMessage: string; deliverAt: number; notifySender: boolean };
};

export type ScheduledMessageEvent =
  | ScheduledMessageCreated
  | ScheduledMessageEdited
  | ScheduledMessageDeleted
  | ScheduledMessageDeliveryClaimed
  | ScheduledMessageDelivered
  | ScheduledMessageDeliveryFailed;

export const SCHEDULED_MESSAGE_EVENT_TYPES: readonly ScheduledMessageEvent['type'][] = [
  'ScheduledMessageCreated',
  'ScheduledMessageEdited',
  'ScheduledMessageDeleted',
  'ScheduledMessageDeliveryClaimed',
  'ScheduledMessageDelivered',
  'ScheduledMessageDeliveryFailed',
];
