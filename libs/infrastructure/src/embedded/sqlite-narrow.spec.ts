import { openSqlite } from './sqlite';
import { flagTest } from './sqlite-narrow';

describe('flagTest', () => {
  it('writes "all" of one bit as "any" of it, the form of the partial indexes\' WHERE', () => {
    expect(flagTest('flags', 2, 'all')).toBe('(flags & 2) != 0');
    expect(flagTest('flags', 2, 'any')).toBe('(flags & 2) != 0');
    expect(flagTest('flags', 1, 'none')).toBe('(flags & 1) = 0');
    expect(flagTest('flags', 6, 'all')).toBe('(flags & 6) = 6');
  });

  it('selects the same values as the arithmetic it stands for, for every mask and set', () => {
    const db = openSqlite(':memory:');
    for (const mask of [0, 1, 2, 6, 120, 512])
      for (const set of ['all', 'none', 'any'] as const)
        for (let flags = 0; flags < 1024; flags += 7) {
          const expected = set === 'all' ? (flags & mask) === mask : set === 'none' ? (flags & mask) === 0 : (flags & mask) !== 0;
          const row = db.prepare(`SELECT ${flagTest('f', mask, set)} AS ok FROM (SELECT ? AS f)`).get(flags) as { ok: number };
          expect([mask, set, flags, row.ok === 1]).toEqual([mask, set, flags, expected]);
        }
    db.close();
  });
});
