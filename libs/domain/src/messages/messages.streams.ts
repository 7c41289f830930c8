/**
 * One stream per message: `message-<messageId>`.
 *
 * Why this boundary: the invariants of a message (it is sent once; its content and topic are
 * edited against its current version; reactions are unique per user and emoji) are all scoped to
 * that one message, so per-message streams mean a busy channel never makes two senders, editors or
 * reactors contend on one stream, and an edit folds only that message's few events. Send order
 * across the server comes from the message id (IdAllocatorPort.next('message')), not from a stream.
 *
 * Topic moves (a later issue) touch many messages at once. They will not append to each
 * `message-<id>`: one `TopicMoved` event (source and target channel and topic, the moved message
 * ids or an id range, old and new values, actor, time) is appended once, to the source channel's
 * topic stream `channel_topics-<streamId>`, whose state guards topic-level invariants (resolving
 * twice, moving into an archived channel). One command is then one append. A message's current
 * location is a fold of its own stream plus the moves that name it; handlers that need it (editing
 * a message) read it from the message read model and pass it in with the command, and the
 * projections apply a `TopicMoved` to every named message with one bulk update.
 */
export const messageStream = (messageId: number) => `message-${messageId}`;
