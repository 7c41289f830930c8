/**
 * One stream per message: `message-<messageId>`.
 *
 * Why this boundary: the invariants of a message (it is sent once; its content and topic are
 * edited against its current version; reactions are unique per user and emoji) are all scoped to
 * that one message, so per-message streams mean a busy channel never makes two senders, editors or
 * reactors contend on one stream, and an edit folds only that message's few events. Send order
 * across the server comes from the message id (IdAllocatorPort.next('message')), not from a stream.
 *
 * Edits and moves: every PATCH /messages/{id} is ONE append to `message-<id>` of the message the
 * request names. A content edit is `MessageContentEdited`; a topic or channel move is one
 * `MessagesMoved` on that stream naming every moved id (change_later / change_all included), so a
 * combined content + topic edit is still one append at one revision. The cost of this boundary:
 * two concurrent moves of one topic through different messages do not conflict; the later wins.
 * Projections apply a `MessagesMoved` with one bulk update of the per-user message index, and
 * message documents keep the location they were sent to: readers overlay the current one
 * (UserMessageStorePort.locationsOf + currentMessage), so a 10,000-message move rewrites no
 * documents.
 *
 * One owner: messageDecider (message.decider.ts) decides every command of the stream (send, edit,
 * delete) on one fold of it, MessageState.
 */
export const messageStream = (messageId: number) => `message-${messageId}`;

/**
 * The streams of one message's reactions and submessages, whose boundaries reactions.streams.ts
 * and submessages.streams.ts explain: named here, beside the message's own, because deleting the
 * message erases their snapshots too (messageDecider's `forgets`).
 */
export const messageReactionsStream = (messageId: number) => `message_reactions-${messageId}`;
export const messageSubmessagesStream = (messageId: number) => `message_submessages-${messageId}`;
