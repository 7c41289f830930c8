import { messageReactionsStream } from '../messages/messages.streams';

/**
 * The reactions to one message live on `message_reactions-<messageId>`.
 *
 * Why this boundary: every rule about a reaction is scoped to one message's reactions: a user
 * reacts with an emoji at most once ("Reaction already exists."), a second user's reaction with
 * the same emoji code is a vote for the first and takes its name, and only an existing reaction is
 * removed. Nothing of the message's content or location takes part, so reactions do not fold or
 * contend with the message's own stream (`message-<id>`, whose one decider owns send, edit and
 * delete): reacting to a busy message never retries an edit, and a reaction reads only the
 * reactions. Whether the message exists and may be read is checked on the read models first, as
 * for every access_message; a reaction that races the message's deletion is dropped by the read
 * models (the reactions projection keeps a deleted message's tombstone; the per-user store only
 * creates rows for indexed messages), so it never shows. A reaction's automatic topic policy
 * (participation, visibility.rules.ts) is recorded with it here, as a send's is on `message-<id>`.
 */
export const reactionsStream = messageReactionsStream;
