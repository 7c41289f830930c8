import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('answers what was set, and undefined for what never was', () => {
    const cache = new BoundedCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, 2, undefined]);
  });

  it('holds at most twice its size, dropping the generation that was not used since', () => {
    const cache = new BoundedCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      expect(cache.count).toBeLessThanOrEqual(200);
    }
    // The most recent `size` entries are always there; the oldest are gone.
    for (let i = 9_900; i < 10_000; i++) expect(cache.get(i)).toBe(i);
    expect(cache.get(0)).toBeUndefined();
  });

  it('keeps an entry that is used while others come and go', () => {
    const cache = new BoundedCache<string, number>(10);
    cache.set('kept', 42);
    for (let i = 0; i < 1_000; i++) {
      cache.set(`other-${i}`, i);
      expect(cache.get('kept')).toBe(42);
    }
  });

  it('forgets a deleted entry in either generation, and everything on clear', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2); // the young generation is full: a and b are now the old one
    cache.set('c', 3);
    cache.delete('a');
    cache.delete('c');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, undefined]);
    cache.clear();
    expect(cache.count).toBe(0);
    expect(cache.get('b')).toBeUndefined();
  });

  it('refuses a size below one', () => {
    expect(() => new BoundedCache(0)).toThrow('at least one entry');
  });
});
