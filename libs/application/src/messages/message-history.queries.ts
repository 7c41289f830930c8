import { Inject, Injectable } from '@nestjs/common';
import { type Actor, type MessageEditEvent, type MessageHistoryEntry, messageHistory, messageStream } from '@app/domain';
import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';
import { EVENT_STORE } from '../ports/tokens';
import { MessageAccess } from './message-access';

/**
 * GET /messages/{id}/history (get_message_edit_history), read from the events, not from a read
 * model: the message's own stream (its send, content edits and the moves it was the target of)
 * and the streams of the moves that named it from another target (their targets are listed with
 * the message's moves in the message index), merged in log order. The product's first audit-history query.
 */
@Injectable()
export class MessageHistoryQueries {
  constructor(
    private readonly access: MessageAccess,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
  ) {}

  async history(actor: Actor, messageId: number): Promise<{ message_history: MessageHistoryEntry[] }> {
    const { moveTargets } = await this.access.access(actor, messageId);
    const streams = [...new Set([messageId, ...moveTargets])].map(messageStream);
    const recorded: RecordedEvent[] = [];
    for (const stream of streams) recorded.push(...(await this.events.readStream(stream)).events);
    recorded.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
    const events = recorded.map((e) => ({ type: e.type, data: e.data }) as MessageEditEvent);
    return { message_history: messageHistory(messageId, events) };
  }
}
