import { unixSeconds } from '../shared/unix-seconds';
import type { MessageEditEvent } from './messages.events';

/** One snapshot of GET /messages/{id}/history (Zulip's FormattedEditHistoryEvent). */
export type MessageHistoryEntry = {
  user_id: number;
  timestamp: number;
  topic: string;
  content: string;
  rendered_content: string;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
};


/**
 * zerver/views/message_edit.py get_message_edit_history (fill_edit_history_entries), built from
 * the message's events in log order: the message as sent, then one snapshot per edit with what
 * it changed. A content edit and a move decided together (same editor, same time) are one edit,
 * as Zulip records them in one edit_history entry. Events that do not concern the message (a
 * move that does not name it) are skipped.
 */
export function messageHistory(messageId: number, events: MessageEditEvent[]): MessageHistoryEntry[] {
  const entries: MessageHistoryEntry[] = [];
  let current: { topic: string; content: string; rendered: string; streamId: number | null } | null = null;
  let last: { entry: MessageHistoryEntry; at: string; editorId: number } | null = null;
  const entryFor = (at: string, editorId: number): MessageHistoryEntry => {
    if (last && last.at === at && last.editorId === editorId) return last.entry;
    const entry: MessageHistoryEntry = { user_id: editorId, timestamp: unixSeconds(at), topic: current!.topic, content: current!.content, rendered_content: current!.rendered };
    entries.push(entry);
    last = { entry, at, editorId };
    return entry;
  };
  for (const event of events) {
    switch (event.type) {
      case 'MessageSent': {
        if (event.data.messageId !== messageId) break;
        const { recipient } = event.data;
        current = {
          topic: recipient.type === 'stream' ? recipient.topic : '',
          content: event.data.content,
          rendered: event.data.renderedContent,
          streamId: recipient.type === 'stream' ? recipient.streamId : null,
        };
        entries.push({ user_id: event.data.senderId, timestamp: unixSeconds(event.data.at), topic: current.topic, content: current.content, rendered_content: current.rendered });
        break;
      }
      case 'MessageContentEdited': {
        if (!current || event.data.messageId !== messageId) break;
        const entry = entryFor(event.data.at, event.data.editorId);
        entry.prev_content = event.data.prevContent;
        entry.prev_rendered_content = event.data.prevRenderedContent;
        current.content = entry.content = event.data.content;
        current.rendered = entry.rendered_content = event.data.renderedContent;
        break;
      }
      case 'MessagesMoved': {
        if (!current || !event.data.messageIds.includes(messageId)) break;
        const entry = entryFor(event.data.at, event.data.editorId);
        if (event.data.topic !== current.topic) {
          entry.prev_topic = current.topic;
          current.topic = entry.topic = event.data.topic;
        }
        if (event.data.streamId !== current.streamId) {
          entry.prev_stream = current.streamId!;
          entry.stream = event.data.streamId;
          current.streamId = event.data.streamId;
        }
        break;
      }
      default:
        break;
    }
  }
  return entries;
}
