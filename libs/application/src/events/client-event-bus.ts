import type { ClientEvent } from './event-queue';

/**
 * Client events that are not in the global log (typing notifications) and must still reach every
 * API instance holding a queue of their recipients: in process (embedded), over Redis pub/sub
 * (servers). Events from the log need no bus: every instance's reactor reads the log itself.
 */
export type BusMessage = { userIds: number[]; event: ClientEvent };

export interface ClientEventBusPort {
  publish(message: BusMessage): Promise<void>;
  /** Receives every published message (this instance's included). */
  subscribe(handler: (message: BusMessage) => void): Promise<void>;
  close(): Promise<void>;
}

export const CLIENT_EVENT_BUS = Symbol('CLIENT_EVENT_BUS');

export class InProcessClientEventBus implements ClientEventBusPort {
  private handlers: ((message: BusMessage) => void)[] = [];

  async publish(message: BusMessage): Promise<void> {
    for (const handler of this.handlers) handler(message);
  }

  async subscribe(handler: (message: BusMessage) => void): Promise<void> {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers = [];
  }
}
