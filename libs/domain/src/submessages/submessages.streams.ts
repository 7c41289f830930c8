import { messageSubmessagesStream } from '../messages/messages.streams';

/**
 * The submessages added to one message live on `message_submessages-<messageId>`.
 *
 * Why this boundary: the rules of POST /submessage are about one message's submessages only
 * (verify_submessage_sender: the first submessage must be the message sender's; the widget type
 * the first `widget` submessage names decides how the content is validated). Votes on a busy poll
 * then never contend with the message's own stream (`message-<id>`: send, edits, deletion). The
 * widget's first submessage is recorded with the message (MessageSent `widget`) and reaches the
 * decider as a fact. Ids come from the server-wide sequence `submessage`, as Zulip's are global.
 * A submessage's automatic topic policy (participation, visibility.rules.ts) is recorded with it here.
 */
export const submessagesStream = messageSubmessagesStream;
