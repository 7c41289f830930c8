import type { EmailNotificationTrigger } from '@app/domain';
import type { CollectionSpec } from '../ports/read-store.port';

/**
 * A message waiting to be mailed to a user who missed it (Zulip's ScheduledMessageNotificationEmail):
 * one per (user, message), all of a user's pending ones due together. Written by the reactor of
 * MissedMessageEmails, not by a projection: whether the user was away when the message came is
 * not in the log (presence is not), so this cannot be rebuilt from it.
 */
export type MissedMessageEmailDocument = {
  user_id: number;
  realm_id: number;
  message_id: number;
  trigger: EmailNotificationTrigger;
  /** When the user's batch is due (ms since the epoch). */
  scheduled_timestamp: number;
};

export const MISSED_MESSAGE_EMAILS = 'missed_message_emails';
export const missedMessageEmailId = (userId: number, messageId: number) => `${userId}:${messageId}`;

export const MISSED_MESSAGE_EMAILS_COLLECTION: CollectionSpec = {
  name: MISSED_MESSAGE_EMAILS,
  fields: [
    { name: 'user_id', type: 'number' },
    { name: 'scheduled_timestamp', type: 'number' },
  ],
};

/** The reactor's checkpoint, beside the pending rows it commits with (the read store's checkpoints). */
export const MISSED_MESSAGE_EMAILS_CHECKPOINT = 'missed-message-emails';
