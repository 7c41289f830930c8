import type { AllSubscriptionHandler, EventStorePort, RecordedEvent } from '../ports/event-store.port';
import type { ReadStorePort } from '../ports/read-store.port';
import type { ProjectionWaiter } from '../shared/projection-waiter';
import { ClientEventMappers } from './client-event-registry';
import { ClientEventReactor } from './client-event-reactor';
import { EventQueues } from './event-queues';
import { ContentKeyMissingError } from '../erasure/content-key-missing-error';

/** The reactor with a scripted log: order, positions, the mapper registry, failure isolation. */
describe('ClientEventReactor', () => {
  let handler: AllSubscriptionHandler | undefined;
  const events = {
    headPosition: async () => 10n,
    subscribeToAll: (options: { after?: bigint }, h: AllSubscriptionHandler) => {
      expect(options.after).toBe(10n);
      handler = h;
      return { close: async () => undefined, done: new Promise<void>(() => undefined) };
    },
  } as unknown as EventStorePort;
  const readStore = { find: async () => [] } as unknown as ReadStorePort;
  const waited: bigint[] = [];
  const waiter = { waitFor: async (p: bigint) => void waited.push(p) } as unknown as ProjectionWaiter;
  const errors: string[] = [];
  const recorded = (position: bigint, type: string, data: object): RecordedEvent =>
    ({ id: String(position), streamId: 's', revision: 0n, position, type, data, metadata: { schemaVersion: 1 }, recordedAt: '' }) as RecordedEvent;

  it('starts at the head, waits for the read models, maps in order and isolates a failing mapper', async () => {
    const queues = new EventQueues({ instanceId: 't' });
    const mappers = new ClientEventMappers()
      .register('Noted', (e: RecordedEvent<string, { userId: number; n: number }>) => [{ userIds: [e.data.userId], event: { type: 'note', n: e.data.n } }])
      .register('Noted', (e: RecordedEvent<string, { userId: number; n: number }>) => [{ userIds: [e.data.userId], event: { type: 'echo', n: e.data.n } }])
      .register('Broken', () => {
        throw new Error('bad mapper');
      });
    const reactor = new ClientEventReactor(events, readStore, waiter, mappers, queues, { error: (_o, msg) => errors.push(msg) }, async () => []);
    await reactor.start();
    expect(reactor.position).toBe(10n);
    const queue = queues.create({ userId: 1, realmId: 1, eventTypes: null });
    queue.open(10n);
    await handler!([recorded(11n, 'Noted', { userId: 1, n: 1 }), recorded(12n, 'Broken', {}), recorded(13n, 'Unmapped', {}), recorded(14n, 'Noted', { userId: 2, n: 2 })]);
    await handler!([recorded(15n, 'Noted', { userId: 1, n: 3 })]);
    expect(reactor.position).toBe(15n);
    expect(waited).toEqual([14n, 15n]);
    expect(errors).toEqual(['client event mapper failed']);
    expect((await queues.fetch(queue, -1, true)).map((e) => [e.type, e.n])).toEqual([['note', 1], ['echo', 1], ['note', 3], ['echo', 3]]);
    expect(mappers.types()).toEqual(['Broken', 'Noted']);
    queues.stop();
  });

  it('maps nothing while this process holds no queue, and delivers to a queue registered afterwards', async () => {
    const queues = new EventQueues({ instanceId: 't' });
    const mapped: number[] = [];
    const mappers = new ClientEventMappers().register('Noted', (e: RecordedEvent<string, { userId: number; n: number }>) => {
      mapped.push(e.data.n);
      return [{ userIds: [e.data.userId], event: { type: 'note', n: e.data.n } }];
    });
    const reactor = new ClientEventReactor(events, readStore, waiter, mappers, queues, { error: (_o, msg) => errors.push(msg) }, async () => []);
    await reactor.start();
    await handler!([recorded(11n, 'Noted', { userId: 1, n: 1 }), recorded(12n, 'Noted', { userId: 1, n: 2 })]);
    expect(mapped).toEqual([]);
    expect(reactor.position).toBe(12n);
    const queue = queues.create({ userId: 1, realmId: 1, eventTypes: null });
    queue.open(reactor.position);
    await handler!([recorded(13n, 'Noted', { userId: 1, n: 3 })]);
    expect(mapped).toEqual([3]);
    expect((await queues.fetch(queue, -1, true)).map((e) => [e.type, e.n])).toEqual([['note', 3]]);
    queues.stop();
  });

  it.each([
    ['resubscribes after a transient error (a busy database)', new Error('database is locked'), 2],
    ['stops on a sealed event without its key instead of resubscribing every second', new ContentKeyMissingError('k1', 'missing'), 1],
  ])('%s', async (_what, error, subscriptions) => {
    jest.useFakeTimers();
    try {
      let subscribed = 0;
      const failing = {
        headPosition: async () => 10n,
        subscribeToAll: () => {
          subscribed++;
          return { close: async () => undefined, done: subscribed === 1 ? Promise.reject(error) : new Promise<void>(() => undefined) };
        },
      } as unknown as EventStorePort;
      const logged: string[] = [];
      const queues = new EventQueues({ instanceId: 't' });
      const reactor = new ClientEventReactor(failing, readStore, waiter, new ClientEventMappers(), queues, { error: (_o, msg) => logged.push(msg) }, async () => []);
      await reactor.start();
      await jest.advanceTimersByTimeAsync(5000);
      expect(subscribed).toBe(subscriptions);
      expect(logged).toEqual([subscriptions === 1 ? `client event reactor stopped: ${error.message}` : 'client event reactor stopped on an error; resubscribing']);
      await reactor.stop();
      queues.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
