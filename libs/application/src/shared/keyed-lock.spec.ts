import { KeyedLock } from './keyed-lock';

/** A promise with its resolve/reject outside, to hold a holder in place. */
function gate<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Lets every pending microtask and timer-free continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLock', () => {
  it('runs the holders of one key one at a time, in the order they asked', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((g, i) =>
      lock.run('k', async () => {
        log.push(`start ${i}`);
        await g.promise;
        log.push(`end ${i}`);
        return i;
      }),
    );
    await settle();
    expect(log).toEqual(['start 0']);
    gates[1].resolve(); // the second may not start before the first ends, even if it is ready
    await settle();
    expect(log).toEqual(['start 0']);
    gates[0].resolve();
    await settle();
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2']);
    gates[2].resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('never makes one key wait for another', async () => {
    const lock = new KeyedLock();
    const held = gate();
    const blocked = lock.run('a', () => held.promise);
    // 'b' runs to its end while 'a' is held.
    await expect(lock.run('b', async () => 'b done')).resolves.toBe('b done');
    expect(lock.size).toBe(1);
    held.resolve();
    await blocked;
  });

  it('starts an idle key\'s holder right away, before the caller awaits anything', () => {
    const lock = new KeyedLock();
    let started = false;
    void lock.run('k', async () => {
      started = true;
    });
    expect(started).toBe(true);
  });

  it('keeps no entry for a key once its holders are done', async () => {
    const lock = new KeyedLock();
    await Promise.all(Array.from({ length: 50 }, (_, i) => lock.run(`k${i % 5}`, async () => settle())));
    expect(lock.size).toBe(0);
    // A key used again after it went idle queues afresh.
    await lock.run('k1', async () => undefined);
    expect(lock.size).toBe(0);
  });

  it('a holder that throws passes its error to its caller and releases the key', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const failing = lock.run('k', async () => {
      log.push('failing');
      throw new Error('boom');
    });
    const next = lock.run('k', async () => {
      log.push('next');
      return 'ok';
    });
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    expect(log).toEqual(['failing', 'next']);
    expect(lock.size).toBe(0);
  });

  it('a holder that throws synchronously releases the key too', async () => {
    const lock = new KeyedLock();
    await expect(
      lock.run('k', () => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    await expect(lock.run('k', async () => 'free')).resolves.toBe('free');
    expect(lock.size).toBe(0);
  });

  it('runAll takes several keys in one order, so two callers naming them in opposite orders both finish', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const first = lock.runAll(['b', 'a'], async () => {
      log.push('first');
      await settle();
    });
    const second = lock.runAll(['a', 'b', 'a'], async () => {
      log.push('second');
    });
    await Promise.all([first, second]);
    expect(log).toEqual(['first', 'second']);
    expect(lock.size).toBe(0);
  });
});
