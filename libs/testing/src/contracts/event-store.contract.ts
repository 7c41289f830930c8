import { randomUUID } from 'node:crypto';
import {
  type EventStorePort,
  type EventToAppend,
  type IdAllocatorPort,
  type RecordedEvent,
  StreamRevisionConflictError,
} from '@app/application';

/** `ids`: the id allocator sharing the store's sequences, for a store that offers appendWithNextId. */
export type EventStoreFixture = { store: EventStorePort; cleanup(): Promise<void>; ids?: IdAllocatorPort };

const event = (type: string, data: object = {}): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  metadata: { schemaVersion: 1, commandId: 'test' },
});

/**
 * The behaviour every EventStorePort adapter must have. Streams get unique names so the suite
 * also runs against a long-lived server (EventStoreDB) whose log holds other data.
 */
export function eventStoreContract(adapterName: string, open: () => Promise<EventStoreFixture>, options: { appendWithNextId?: boolean } = {}) {
  describe(`EventStorePort contract: ${adapterName}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStorePort;
    const stream = (category = 'contract') => `${category}-${randomUUID().replace(/-/g, '')}`;

    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture.cleanup();
    });

    it('creates a stream at revision 0 and reads back type, data, metadata and id', async () => {
      const s = stream();
      const e = event('ThingHappened', { n: 1, text: 'héllo ✔', nested: { list: [1, 2] } });
      const result = await store.appendToStream(s, [e], { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(0n);
      const read = await store.readStream(s);
      expect(read.revision).toBe(0n);
      expect(read.events).toHaveLength(1);
      expect(read.events[0]).toMatchObject({
        id: e.id, streamId: s, revision: 0n, type: 'ThingHappened',
        data: { n: 1, text: 'héllo ✔', nested: { list: [1, 2] } }, metadata: { schemaVersion: 1, commandId: 'test' },
      });
      expect(read.events[0].position).toBe(result.position);
      expect(Number.isNaN(Date.parse(read.events[0].recordedAt))).toBe(false);
    });

    it('reads a missing stream as empty with revision no_stream', async () => {
      expect(await store.readStream(stream())).toEqual({ events: [], revision: 'no_stream' });
    });

    it('refuses no_stream on an existing stream, and a stale exact revision', async () => {
      const s = stream();
      await store.appendToStream(s, [event('A')], { expectedRevision: 'no_stream' });
      await expect(store.appendToStream(s, [event('B')], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(StreamRevisionConflictError);
      await store.appendToStream(s, [event('B')], { expectedRevision: 0n });
      await expect(store.appendToStream(s, [event('C')], { expectedRevision: 0n })).rejects.toBeInstanceOf(StreamRevisionConflictError);
      await expect(store.appendToStream(stream(), [event('C')], { expectedRevision: 3n })).rejects.toBeInstanceOf(StreamRevisionConflictError);
      const read = await store.readStream(s);
      expect(read.events.map((e) => e.type)).toEqual(['A', 'B']);
      expect(read.revision).toBe(1n);
    });

    it('appends with expected revision any whatever the stream holds', async () => {
      const s = stream();
      await store.appendToStream(s, [event('A')], { expectedRevision: 'any' });
      const result = await store.appendToStream(s, [event('B')], { expectedRevision: 'any' });
      expect(result.nextExpectedRevision).toBe(1n);
    });

    it('appends several events atomically, in order, with increasing revisions and positions', async () => {
      const s = stream();
      const result = await store.appendToStream(s, [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(2n);
      const { events } = await store.readStream(s);
      expect(events.map((e) => [e.type, e.revision])).toEqual([['A', 0n], ['B', 1n], ['C', 2n]]);
      expect(events[0].position < events[1].position && events[1].position < events[2].position).toBe(true);
      expect(events[2].position).toBe(result.position);
    });

    it('reads part of a stream from a revision, bounded by maxCount', async () => {
      const s = stream();
      await store.appendToStream(s, ['A', 'B', 'C', 'D'].map((t) => event(t)), { expectedRevision: 'no_stream' });
      const read = await store.readStream(s, { fromRevision: 1n, maxCount: 2 });
      expect(read.events.map((e) => e.type)).toEqual(['B', 'C']);
      expect(read.revision).toBe(3n);
    });

    it('reads on from a revision to the end (a command after its snapshot), reporting the stream\'s revision', async () => {
      const s = stream();
      const appended = ['A', 'B', 'C', 'D'].map((t) => event(t));
      await store.appendToStream(s, appended, { expectedRevision: 'no_stream' });
      const tail = await store.readStream(s, { fromRevision: 2n });
      expect(tail.events.map((e) => [e.revision, e.type, e.id])).toEqual([[2n, 'C', appended[2].id], [3n, 'D', appended[3].id]]);
      expect(tail.revision).toBe(3n);
      const last = await store.readStream(s, { fromRevision: 3n });
      expect(last.events.map((e) => e.type)).toEqual(['D']);
      expect(last.revision).toBe(3n);
      // Past the end: nothing, and still the stream's revision (not no_stream).
      expect(await store.readStream(s, { fromRevision: 9n })).toEqual({ events: [], revision: 3n });
      expect(await store.readStream(stream(), { fromRevision: 2n })).toEqual({ events: [], revision: 'no_stream' });
    });

    it('treats a retried append with the same event ids as the original, not a duplicate', async () => {
      const s = stream();
      const batch = [event('A'), event('B')];
      const first = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
      const retry = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
      expect(retry.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect((await store.readStream(s)).events).toHaveLength(2);
    });

    it('treats a retried append with expected revision any as the original too', async () => {
      const s = stream();
      await store.appendToStream(s, [event('Created')], { expectedRevision: 'no_stream' });
      const batch = [event('A'), event('B')];
      const first = await store.appendToStream(s, batch, { expectedRevision: 'any' });
      const retry = await store.appendToStream(s, batch, { expectedRevision: 'any' });
      expect(retry).toEqual(first);
      expect((await store.readStream(s)).events.map((e) => e.type)).toEqual(['Created', 'A', 'B']);
    });

    it('lets exactly one of many concurrent appends at the same revision win', async () => {
      const s = stream();
      await store.appendToStream(s, [event('Created')], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.appendToStream(s, [event('Edited', { i })], { expectedRevision: 0n })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StreamRevisionConflictError);
      expect((await store.readStream(s)).events).toHaveLength(2);
    });

    it('reads the global log after a position, across streams, in append order', async () => {
      const head = await store.headPosition();
      const s1 = stream();
      const s2 = stream();
      await store.appendToStream(s1, [event('One')], { expectedRevision: 'no_stream' });
      await store.appendToStream(s2, [event('Two'), event('Three')], { expectedRevision: 'no_stream' });
      const last = await store.appendToStream(s1, [event('Four')], { expectedRevision: 0n });
      const ours = (await store.readAll({ after: head, maxCount: 1000 })).filter((e) => e.streamId === s1 || e.streamId === s2);
      expect(ours.map((e) => e.type)).toEqual(['One', 'Two', 'Three', 'Four']);
      expect(await store.headPosition()).toBe(last.position);
      const page = await store.readAll({ after: ours[0].position, maxCount: 2 });
      expect(page.map((e) => e.type)).toEqual(['Two', 'Three']);
      expect(await store.readAll({ after: last.position, maxCount: 10 })).toEqual([]);
    });

    it('subscribes from a position: catches up, then delivers live appends, in order, never concurrently', async () => {
      const s = stream();
      const first = await store.appendToStream(s, [event('Before1'), event('Before2')], { expectedRevision: 'no_stream' });
      const { events: [before1] } = await store.readStream(s, { maxCount: 1 });
      const seen: RecordedEvent[] = [];
      let inFlight = 0;
      let overlapped = false;
      const subscription = store.subscribeToAll({ after: before1.position, batchSize: 2 }, async (batch) => {
        inFlight++;
        if (inFlight > 1) overlapped = true;
        await new Promise((r) => setTimeout(r, 5));
        seen.push(...batch.filter((e) => e.streamId === s));
        inFlight--;
      });
      try {
        await waitUntil(() => seen.length >= 1);
        await store.appendToStream(s, [event('Live1')], { expectedRevision: first.nextExpectedRevision });
        await store.appendToStream(s, [event('Live2'), event('Live3')], { expectedRevision: first.nextExpectedRevision + 1n });
        await waitUntil(() => seen.length >= 4);
        expect(seen.map((e) => e.type)).toEqual(['Before2', 'Live1', 'Live2', 'Live3']);
        expect(overlapped).toBe(false);
      } finally {
        await subscription.close();
      }
      await subscription.done;
    });

    it('stops delivering after close', async () => {
      const s = stream();
      const head = await store.headPosition();
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ after: head }, async (batch) => {
        seen.push(...batch.filter((e) => e.streamId === s).map((e) => e.type));
      });
      await store.appendToStream(s, [event('A')], { expectedRevision: 'no_stream' });
      await waitUntil(() => seen.length === 1);
      await subscription.close();
      await store.appendToStream(s, [event('B')], { expectedRevision: 0n });
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual(['A']);
    });

    it('ends the subscription with the handler\'s error', async () => {
      const s = stream();
      const head = await store.headPosition();
      await store.appendToStream(s, [event('A')], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToAll({ after: head }, async () => {
        throw new Error('projection failed');
      });
      await expect(subscription.done).rejects.toThrow('projection failed');
      await subscription.close();
    });

    it('reports healthy', async () => {
      expect((await store.health()).ok).toBe(true);
    });

    // The optional EventStorePort.appendWithNextId, for the adapters that offer it.
    if (options.appendWithNextId) {
      describe('appendWithNextId', () => {
        const sequence = () => `contract-${randomUUID().slice(0, 8)}`;

        it('takes the next id of the sequence and appends under it at revision 0, in id order with IdAllocatorPort.next', async () => {
          const seq = sequence();
          const ids = fixture.ids!;
          const first = await ids.next(seq);
          const prefix = stream('nextid');
          const e = event('Created', { n: 1 });
          const result = await store.appendWithNextId!(seq, (id) => ({ streamId: `${prefix}-${id}`, events: [{ ...e, data: { id } }, event('Followed')] }));
          expect(result.id).toBe(first + 1);
          expect(result.nextExpectedRevision).toBe(1n);
          const read = await store.readStream(`${prefix}-${result.id}`);
          expect(read.events.map((x) => [x.type, x.revision, x.data])).toEqual([['Created', 0n, { id: first + 1 }], ['Followed', 1n, {}]]);
          expect(read.events[1].position).toBe(result.position);
          expect(await ids.next(seq)).toBe(first + 2);
        });

        it('refuses a stream that exists (StreamRevisionConflictError) and takes no id', async () => {
          const seq = sequence();
          const taken = await fixture.ids!.next(seq);
          const existing = stream('nextid');
          await store.appendToStream(existing, [event('A')], { expectedRevision: 'no_stream' });
          await expect(store.appendWithNextId!(seq, () => ({ streamId: existing, events: [event('B')] }))).rejects.toBeInstanceOf(StreamRevisionConflictError);
          expect((await store.readStream(existing)).events.map((x) => x.type)).toEqual(['A']);
          expect(await fixture.ids!.next(seq)).toBe(taken + 1);
        });

        it('takes no id and appends nothing when building the events fails', async () => {
          const seq = sequence();
          const taken = await fixture.ids!.next(seq);
          const head = await store.headPosition();
          await expect(store.appendWithNextId!(seq, () => { throw new Error('refused'); })).rejects.toThrow('refused');
          expect(await store.headPosition()).toBe(head);
          expect(await fixture.ids!.next(seq)).toBe(taken + 1);
        });

        it('gives appends made together consecutive ids, and the id of a refused one to the next', async () => {
          const seq = sequence();
          const taken = await fixture.ids!.next(seq);
          const existing = stream('nextid');
          await store.appendToStream(existing, [event('A')], { expectedRevision: 'no_stream' });
          const prefix = stream('nextid');
          const results = await Promise.allSettled([
            store.appendWithNextId!(seq, (id) => ({ streamId: `${prefix}-${id}`, events: [event('One')] })),
            store.appendWithNextId!(seq, () => ({ streamId: existing, events: [event('B')] })),
            store.appendWithNextId!(seq, (id) => ({ streamId: `${prefix}-${id}`, events: [event('Two'), event('Three')] })),
            store.appendWithNextId!(seq, () => { throw new Error('refused'); }),
            store.appendWithNextId!(seq, (id) => ({ streamId: `${prefix}-${id}`, events: [event('Four')] })),
          ]);
          expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
          const ids = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.id] : []));
          expect(ids).toEqual([taken + 1, taken + 2, taken + 3]);
          for (const [id, types] of [[taken + 1, ['One']], [taken + 2, ['Two', 'Three']], [taken + 3, ['Four']]] as const) {
            expect((await store.readStream(`${prefix}-${id}`)).events.map((x) => x.type)).toEqual(types);
          }
          expect(await fixture.ids!.next(seq)).toBe(taken + 4);
        });

        it('writes none of the events of an append refused at its second, and takes no id', async () => {
          const seq = sequence();
          const taken = await fixture.ids!.next(seq);
          const stored = event('Stored');
          await store.appendToStream(stream('nextid'), [stored], { expectedRevision: 'no_stream' });
          const prefix = stream('nextid');
          // The second event's id is already in the log: the append fails as a whole. (Its error is
          // the driver's: under jest, better-sqlite3's SqliteError belongs to the realm of the first
          // test file that loaded the addon, so it may not be an `Error` of this one to toThrow.)
          await expect(store.appendWithNextId!(seq, (id) => ({ streamId: `${prefix}-${id}`, events: [event('First'), { ...event('Again'), id: stored.id }] }))).rejects.toHaveProperty('message');
          expect((await store.readStream(`${prefix}-${taken + 1}`)).events).toEqual([]);
          expect(await fixture.ids!.next(seq)).toBe(taken + 1);
        });

        it('wakes subscriptions like any append', async () => {
          const seen: string[] = [];
          const subscription = store.subscribeToAll({ after: await store.headPosition() }, async (events) => void seen.push(...events.map((x) => x.type)));
          const prefix = stream('nextid');
          await store.appendWithNextId!(sequence(), (id) => ({ streamId: `${prefix}-${id}`, events: [event('Woken')] }));
          await waitUntil(() => seen.includes('Woken'), 2000);
          await subscription.close();
        });
      });
    }
  });
}

export async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
