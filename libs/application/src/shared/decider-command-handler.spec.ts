import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { type Actor, type Decider, DomainError, type DomainEvent } from '@app/domain';
import { openSqlite, SqliteEventStore } from '@app/infrastructure';
import { FakeClock, makeTempDir } from '@app/testing';
import type { GlobalPosition } from '../ports/event-store.port';
import type { RandomPort } from '../ports/random.port';
import { ServerBusyError } from './application.errors';
import { DeciderCommandHandler, DeciderCommands } from './decider-command-handler';
import { DeciderRunner } from './decider-runner';
import { ProjectionWaiter } from './projection-waiter';

// A counter per organization: `Add` adds to it and refuses to go past 10; `Touch` decides nothing.
type Meta = { realmId: number; actor: Actor; now: string };
type Add = { type: 'Add'; data: Meta & { amount: number } };
type Touch = { type: 'Touch'; data: Meta };
type CounterCommand = Add | Touch;
type Added = DomainEvent<'Added', { realmId: number; amount: number; total: number; at: string; by: number | null }>;
type CounterState = { total: number };

class TooMuchError extends DomainError {
  constructor() {
    super('Too much', 'BAD_REQUEST', 400);
  }
}

const counterDecider: Decider<CounterCommand, Added, CounterState> = {
  initialState: () => ({ total: 0 }),
  decide: (command, state) => {
    if (command.type === 'Touch') return [];
    const { realmId, actor, now, amount } = command.data;
    const total = state.total + amount;
    if (total > 10) throw new TooMuchError();
    return [{ type: 'Added', data: { realmId, amount, total, at: now, by: actor.userId } }];
  },
  evolve: (state, event) => (event.type === 'Added' ? { total: event.data.total } : state),
};

const counters = DeciderCommandHandler({ ...counterDecider, mapToStreamId: ({ data }) => `counter-${data.realmId}` });

/** Records every wait, so a test sees what the handler waited for and when. */
class RecordingWaiter extends ProjectionWaiter {
  readonly waits: (GlobalPosition | undefined)[] = [];
  waitFor(position: GlobalPosition | undefined): Promise<void> {
    this.waits.push(position);
    return Promise.resolve();
  }
}

const random: RandomPort = { alphanumeric: (n) => 'x'.repeat(n), uuid: () => '00000000-0000-4000-8000-000000000001' };
const alice: Actor = { realmId: 3, userId: 7, role: 'member', isBot: false };

describe('DeciderCommandHandler', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let db: Database.Database;
  let store: SqliteEventStore;
  let waiter: RecordingWaiter;
  let commands: DeciderCommands;

  beforeEach(() => {
    dir = makeTempDir('decider-command-handler-');
    db = openSqlite(join(dir.path, 'events.sqlite'));
    store = new SqliteEventStore(db, { pollIntervalMs: 50, now: () => new Date('2026-01-01T00:00:00Z') });
    waiter = new RecordingWaiter();
    commands = new DeciderCommands(new DeciderRunner(store, random), waiter, new FakeClock(new Date('2026-03-04T05:06:07Z')));
  });
  afterEach(async () => {
    await store.close();
    db.close();
    dir.remove();
  });

  const stream = async (id: string) => (await store.readStream(id)).events.map(({ type, data, metadata }) => ({ type, data, metadata }));

  it('builds the command with the actor, the organization and the clock\'s time, appends on the mapped stream and waits for the append', async () => {
    const result = await counters(commands, alice, (meta) => ({ type: 'Add', data: { ...meta, amount: 4 } }), { metadata: { actorId: 7 } });

    expect(result.command).toEqual({ type: 'Add', data: { realmId: 3, actor: alice, now: '2026-03-04T05:06:07.000Z', amount: 4 } });
    expect(result.newEvents).toEqual([{ type: 'Added', data: { realmId: 3, amount: 4, total: 4, at: '2026-03-04T05:06:07.000Z', by: 7 } }]);
    expect(await stream('counter-3')).toEqual([
      { type: 'Added', data: { realmId: 3, amount: 4, total: 4, at: '2026-03-04T05:06:07.000Z', by: 7 }, metadata: expect.objectContaining({ actorId: 7 }) },
    ]);
    expect(result.position).toBeDefined();
    expect(waiter.waits).toEqual([result.position]);
  });

  it('decides on the stream\'s state folded from its events', async () => {
    await counters(commands, alice, (meta) => ({ type: 'Add', data: { ...meta, amount: 4 } }));
    const second = await counters(commands, alice, (meta) => ({ type: 'Add', data: { ...meta, amount: 5 } }));

    expect(second.newEvents.map((e) => e.data.total)).toEqual([9]);
    expect((await stream('counter-3')).map((e) => e.data)).toEqual([expect.objectContaining({ total: 4 }), expect.objectContaining({ total: 9 })]);
    // Another organization's counter is another stream.
    await counters(commands, { ...alice, realmId: 4 }, (meta) => ({ type: 'Add', data: { ...meta, amount: 1 } }));
    expect((await stream('counter-4')).map((e) => e.data)).toEqual([expect.objectContaining({ realmId: 4, total: 1 })]);
  });

  it('surfaces the decider\'s error as it is, appending nothing and waiting for nothing', async () => {
    await counters(commands, alice, (meta) => ({ type: 'Add', data: { ...meta, amount: 8 } }));
    waiter.waits.length = 0;

    await expect(counters(commands, alice, (meta) => ({ type: 'Add', data: { ...meta, amount: 3 } }))).rejects.toBeInstanceOf(TooMuchError);
    expect(await stream('counter-3')).toHaveLength(1);
    expect(waiter.waits).toEqual([]);
  });

  it('appends nothing when the decider decides nothing, and returns no position', async () => {
    const result = await counters(commands, alice, (meta) => ({ type: 'Touch', data: meta }));

    expect(result).toEqual(expect.objectContaining({ newEvents: [], position: undefined }));
    expect(await stream('counter-3')).toEqual([]);
    expect(waiter.waits).toEqual([undefined]);
  });

  it('runs a decider\'s commands with its own retry policy', async () => {
    // Another writer appends before each of the handler's appends: with no time budget the handler gives up at once.
    const strict = DeciderCommandHandler({ ...counterDecider, mapToStreamId: ({ data }) => `counter-${data.realmId}`, retry: { budgetMs: 0 } });
    const inner = store.appendToStream.bind(store);
    let interlopers = 0;
    store.appendToStream = async (streamId, events, options) => {
      if (options.expectedRevision !== 'any' && interlopers < 5) {
        interlopers += 1;
        const { revision } = await store.readStream(streamId);
        await inner(streamId, [{ id: `ffffffff-0000-4000-8000-00000000000${interlopers}`, type: 'Other', data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: revision });
      }
      return inner(streamId, events, options);
    };

    await expect(strict(commands, alice, (meta) => ({ type: 'Add', data: { ...meta, amount: 1 } }))).rejects.toBeInstanceOf(ServerBusyError);
    expect(interlopers).toBe(1);
  });
});
