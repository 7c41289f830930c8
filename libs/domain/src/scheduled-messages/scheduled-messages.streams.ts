/**
 * One stream per scheduled message, `scheduled_message-<id>`: every rule (owner only, not after
 * it was sent, one delivery) is about that one message, and deliveries of different messages
 * never contend. Ids come from the server-wide sequence `scheduled_message` (Zulip's are global),
 * distinct from the `message` sequence that gives the delivered message its id.
 */
export const SCHEDULED_MESSAGE_SEQUENCE = 'scheduled_message';
export const scheduledMessageStream = (scheduledMessageId: number) => `scheduled_message-${scheduledMessageId}`;
