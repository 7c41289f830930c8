import type { EditMessageFacts } from './edit-message.facts';
import type { MessagesMoved } from './messages.events';
import { silentMentionSyntax as silentMention } from './mention-syntax';
import { channelMessageNarrow as messageLink } from './rendering/url-encoding';

/** A message Notification Bot posts about a move: where, and what it says. */
export type MoveNotice = { streamId: number; topic: string; content: string };

/** zerver/lib/topic_link_util.py get_stream_topic_link_syntax (plain form). */
const topicLink = (streamName: string, topic: string) => `#**${streamName}>${topic}**`;

/**
 * The notices of a move (do_update_message, maybe_send_resolve_topic_notifications and
 * send_message_moved_breadcrumbs), in Zulip's words and order:
 *
 * - a pure resolve or unresolve (topic only, no content, same channel): "{user} has marked this
 *   topic as resolved." / "… unresolved." in the new topic, and no moved-here notice;
 * - send_notification_to_new_thread (default true), unless the move only resolves or unresolves:
 *   "This topic was moved here from {old} by {user}." when the whole visible topic moved into an
 *   empty topic, else "[A message](link) was moved here …" / "N messages were moved here …";
 * - send_notification_to_old_thread (default false): "This topic was moved to {new} by {user}." /
 *   "A message was moved from this topic to {new} by {user}." / "N messages were moved from this
 *   topic to {new} by {user}.".
 */
export function moveNotices(moved: MessagesMoved['data'], facts: EditMessageFacts, contentEdited: boolean): MoveNotice[] {
  const user = silentMention(facts.editor);
  const origName = facts.origChannel?.name ?? '';
  const isStreamEdited = moved.streamId !== moved.origStreamId;
  const isTopicEdited = moved.topic !== moved.origTopic;
  const movedIds = new Set(moved.messageIds);
  const movedAll = moved.propagateMode === 'change_all' || facts.topicMessageIds.every((id) => movedIds.has(id));
  const count = moved.messageIds.length;
  const notices: MoveNotice[] = [];
  if (isTopicEdited && !contentEdited && !isStreamEdited && moved.resolution !== null) {
    notices.push({ streamId: moved.streamId, topic: moved.topic, content: `${user} has marked this topic as ${moved.resolution}.` });
  }
  if (facts.request.sendNotificationToNewThread && (isStreamEdited || (isTopicEdited && moved.resolution === null))) {
    const old = topicLink(origName, moved.origTopic);
    const link = messageLink(moved.streamId, moved.streamName, moved.topic, moved.targetMessageId);
    const content =
      !facts.targetTopicHasMessages && movedAll
        ? `This topic was moved here from ${old} by ${user}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${old} by ${user}.`
          : `${count} messages were moved here from ${old} by ${user}.`;
    notices.push({ streamId: moved.streamId, topic: moved.topic, content });
  }
  if (facts.request.sendNotificationToOldThread) {
    const target = topicLink(moved.streamName, moved.topic);
    const content = movedAll
      ? `This topic was moved to ${target} by ${user}.`
      : count === 1
        ? `A message was moved from this topic to ${target} by ${user}.`
        : `${count} messages were moved from this topic to ${target} by ${user}.`;
    notices.push({ streamId: moved.origStreamId, topic: moved.origTopic, content });
  }
  return notices;
}
