import { Redis } from 'ioredis';
import type { BusMessage, ClientEventBusPort } from '@app/application';

/**
 * Client events that are not in the global log (typing notifications) fanned out to every API
 * instance over Redis pub/sub: one channel, JSON messages. A subscribed ioredis connection can
 * only subscribe, so publishing uses a second connection. Pub/sub is fire-and-forget, as typing
 * notifications are (Zulip drops them too when a queue is not connected).
 */
export class RedisClientEventBus implements ClientEventBusPort {
  private handlers: ((message: BusMessage) => void)[] = [];

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
  ) {
    subscriber.on('message', (channel: string, payload: string) => {
      if (channel !== this.channel) return;
      let message: BusMessage;
      try {
        message = JSON.parse(payload) as BusMessage;
      } catch {
        return;
      }
      for (const handler of this.handlers) handler(message);
    });
  }

  static async connect(url: string, channel = 'client-events'): Promise<RedisClientEventBus> {
    const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const subscriber = new Redis(url, { lazyConnect: true });
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel);
    return new RedisClientEventBus(publisher, subscriber, channel);
  }

  async publish(message: BusMessage): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify(message));
  }

  async subscribe(handler: (message: BusMessage) => void): Promise<void> {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers = [];
    await Promise.all([
      this.subscriber.quit().catch(() => this.subscriber.disconnect()),
      this.publisher.quit().catch(() => this.publisher.disconnect()),
    ]);
  }
}
