import * as domain from '../index';
import type { Decider } from './decider';

/** Every decider the domain exports (an object with decide, evolve and initialState). */
const deciders = Object.entries(domain as Record<string, unknown>).filter(
  (entry): entry is [string, Decider<unknown, unknown, unknown>] => {
    const value = entry[1] as Partial<Decider<unknown, unknown, unknown>> | null;
    return typeof value === 'object' && value !== null && typeof value.decide === 'function' && typeof value.evolve === 'function' && typeof value.initialState === 'function';
  },
);

describe('deciders\' snapshot codecs', () => {
  it('finds the deciders', () => {
    expect(deciders.map(([name]) => name)).toEqual(expect.arrayContaining(['usersDecider', 'channelsDecider', 'subscriptionsDecider', 'draftsDecider', 'botStorageDecider']));
  });

  it('every decider declares one, under a name of its own (a new decider must too: docs/operations.md, "Command reads and snapshots")', () => {
    const missing = deciders.filter(([, d]) => !d.snapshot).map(([name]) => name);
    expect(missing).toEqual([]);
    const names = deciders.map(([, d]) => d.snapshot!.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [, d] of deciders) expect(Number.isInteger(d.snapshot!.version) && d.snapshot!.version >= 1).toBe(true);
  });

  it.each(deciders)('%s: the initial state survives encode, JSON and decode', (_, decider) => {
    const codec = decider.snapshot!;
    const state = decider.initialState();
    const json = JSON.parse(JSON.stringify(codec.encode ? codec.encode(state) : state));
    expect(codec.decode ? codec.decode(json) : json).toEqual(state);
  });

  it('bot storage\'s Map survives the round trip', () => {
    const codec = domain.botStorageDecider.snapshot!;
    const state = { entries: new Map([['a', '1'], ['b', '22']]), size: 5 };
    const back = codec.decode!(JSON.parse(JSON.stringify(codec.encode!(state))));
    expect(back.entries).toBeInstanceOf(Map);
    expect([...back.entries]).toEqual([['a', '1'], ['b', '22']]);
    expect(back.size).toBe(5);
  });
});
