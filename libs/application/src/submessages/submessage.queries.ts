import { Inject, Injectable } from '@nestjs/common';
import type { StoredSubmessage } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ApiSubmessage, MESSAGE_SUBMESSAGES, type MessageSubmessagesDocument } from './submessage.documents';

/** Reads of the submessages read model: what message objects carry under `submessages`. */
@Injectable()
export class SubmessageQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** The submessages of these messages, by message id (messages without any are absent). */
  async forMessages(messageIds: number[]): Promise<Map<number, ApiSubmessage[]>> {
    if (messageIds.length === 0) return new Map();
    const docs = await this.readStore.getMany<MessageSubmessagesDocument>(MESSAGE_SUBMESSAGES, messageIds.map(String));
    return new Map(docs.filter((d) => d.doc.submessages.length > 0).map((d) => [d.doc.message_id, d.doc.submessages]));
  }

  /** The widget submessage the message was sent with (a `/poll` or `/todo`), if any. */
  async widgetOf(messageId: number): Promise<StoredSubmessage | null> {
    const doc = await this.readStore.get<MessageSubmessagesDocument>(MESSAGE_SUBMESSAGES, String(messageId));
    const widget = doc?.submessages.find((s) => s.id === doc.widget_id);
    return widget ? { submessageId: widget.id, senderId: widget.sender_id, msgType: widget.msg_type, content: widget.content } : null;
  }
}
