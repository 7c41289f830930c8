import { ProjectionTimeoutError, type ReadModelChangesPort, type ReadStorePort } from '@app/application';
import { CheckpointWaiter } from './checkpoint-waiter';

/** Checkpoints another process moves, and the notifications it would send. */
function fixture(options: { fallbackPollMs?: number; timeoutMs?: number } = {}) {
  const checkpoints: Record<string, bigint> = { a: 0n, b: 0n };
  let failing = false;
  const listeners = new Set<() => void>();
  const readStore = {
    getCheckpoints: jest.fn(async () => {
      if (failing) throw new Error('store away');
      return { ...checkpoints };
    }),
  } as unknown as ReadStorePort & { getCheckpoints: jest.Mock };
  const changes: ReadModelChangesPort = {
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => undefined,
  };
  const waiter = new CheckpointWaiter(readStore, ['a', 'b'], changes, { timeoutMs: options.timeoutMs ?? 10_000, fallbackPollMs: options.fallbackPollMs ?? 60_000 });
  return {
    waiter,
    readStore,
    listeners,
    move: (a: bigint, b: bigint) => {
      checkpoints.a = a;
      checkpoints.b = b;
    },
    notify: () => [...listeners].forEach((l) => l()),
    fail: (value: boolean) => (failing = value),
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const settledState = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(() => (state = 'resolved'), () => (state = 'rejected'));
  await flush();
  await flush();
  return state;
};

describe('CheckpointWaiter (read-your-writes when the projectors run in another process)', () => {
  it('resolves once every projection has reached the position, woken by the notification alone', async () => {
    const f = fixture();
    const waiting = f.waiter.waitFor(5n);
    expect(await settledState(waiting)).toBe('pending');
    f.move(5n, 3n);
    f.notify();
    expect(await settledState(waiting)).toBe('pending'); // the slowest projection decides
    f.move(5n, 7n);
    f.notify();
    expect(await settledState(waiting)).toBe('resolved');
    expect(f.waiter.position).toBe(5n);
    f.waiter.close();
  });

  it('reads the checkpoints once per notification however many writes wait, and stops listening when none wait', async () => {
    const f = fixture();
    const waits = Array.from({ length: 50 }, (_, i) => f.waiter.waitFor(BigInt(i + 1)));
    await flush();
    const before = f.readStore.getCheckpoints.mock.calls.length;
    expect(before).toBeLessThanOrEqual(2); // the first check, plus at most one re-read
    f.move(50n, 50n);
    f.notify();
    f.notify();
    await Promise.all(waits);
    expect(f.readStore.getCheckpoints.mock.calls.length - before).toBeLessThanOrEqual(2);
    expect(f.listeners.size).toBe(0);
  });

  it('answers a position already reached without reading', async () => {
    const f = fixture();
    f.move(9n, 9n);
    await f.waiter.waitFor(9n);
    const reads = f.readStore.getCheckpoints.mock.calls.length;
    await f.waiter.waitFor(4n);
    await f.waiter.waitFor(undefined);
    expect(f.readStore.getCheckpoints.mock.calls.length).toBe(reads);
  });

  it('falls back to its slow timer when no notification comes', async () => {
    const f = fixture({ fallbackPollMs: 20 });
    const waiting = f.waiter.waitFor(2n);
    f.move(2n, 2n); // moved, but nobody says so
    await expect(waiting).resolves.toBeUndefined();
  });

  it('keeps waiting through a store error and times out with ProjectionTimeoutError', async () => {
    const f = fixture({ timeoutMs: 60 });
    f.fail(true);
    const waiting = f.waiter.waitFor(3n);
    f.notify();
    await expect(waiting).rejects.toBeInstanceOf(ProjectionTimeoutError);
    expect(f.listeners.size).toBe(0);
    f.fail(false);
    f.move(3n, 3n);
    await expect(f.waiter.waitFor(3n)).resolves.toBeUndefined();
    f.waiter.close();
  });

  it('patiently: boot-time work waits past the timeout, for a worker that starts late', async () => {
    const f = fixture({ timeoutMs: 30 });
    const boot = f.waiter.patiently(async () => {
      await f.waiter.waitFor(4n);
      return 'created';
    });
    await new Promise((r) => setTimeout(r, 80));
    expect(await settledState(boot)).toBe('pending');
    f.move(4n, 4n);
    f.notify();
    await expect(boot).resolves.toBe('created');
    // Afterwards the usual bound applies again.
    await expect(f.waiter.waitFor(5n)).rejects.toBeInstanceOf(ProjectionTimeoutError);
  });

  it('an infinite timeout waits until closed', async () => {
    const f = fixture();
    const waiting = f.waiter.waitFor(8n, Infinity);
    expect(await settledState(waiting)).toBe('pending');
    f.waiter.close();
    await expect(waiting).rejects.toThrow('closing');
  });
});
