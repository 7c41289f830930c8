import { packPosition, unpackPosition, type EsdbPosition } from './esdb-position';

const MAX_U64 = (1n << 64n) - 1n;

/** Reference order of `$all`: commit position first, then prepare position. */
const compare = (a: EsdbPosition, b: EsdbPosition) =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;

describe('packPosition / unpackPosition', () => {
  it('round-trips positions, including the extremes', () => {
    const positions: EsdbPosition[] = [
      { commit: 0n, prepare: 0n },
      { commit: 0n, prepare: 1n },
      { commit: 1n, prepare: 0n },
      { commit: 1056n, prepare: 1056n },
      { commit: 123_456_789n, prepare: 123_456_000n },
      { commit: MAX_U64, prepare: MAX_U64 },
      { commit: MAX_U64, prepare: 0n },
      { commit: 0n, prepare: MAX_U64 },
    ];
    for (const position of positions) expect(unpackPosition(packPosition(position))).toEqual(position);
  });

  it('puts commit in the high 64 bits and prepare in the low 64 bits', () => {
    expect(packPosition({ commit: 0n, prepare: 0n })).toBe(0n);
    expect(packPosition({ commit: 0n, prepare: 7n })).toBe(7n);
    expect(packPosition({ commit: 1n, prepare: 0n })).toBe(1n << 64n);
    expect(packPosition({ commit: 2n, prepare: 3n })).toBe((2n << 64n) + 3n);
  });

  it('orders packed positions exactly as $all orders (commit, prepare)', () => {
    const values = [0n, 1n, 2n, 1000n, (1n << 32n) + 5n, (1n << 63n) - 1n, 1n << 63n, MAX_U64 - 1n, MAX_U64];
    const positions: EsdbPosition[] = [];
    for (const commit of values) for (const prepare of values) positions.push({ commit, prepare });
    for (const a of positions) {
      for (const b of positions) {
        const packedA = packPosition(a);
        const packedB = packPosition(b);
        const packedOrder = packedA === packedB ? 0 : packedA < packedB ? -1 : 1;
        expect(packedOrder).toBe(compare(a, b));
      }
    }
  });

  it('does not confuse a larger prepare with a larger commit', () => {
    // A later commit always sorts after, whatever the prepare positions are.
    expect(packPosition({ commit: 5n, prepare: MAX_U64 }) < packPosition({ commit: 6n, prepare: 0n })).toBe(true);
  });

  it('rejects values outside the unsigned 64-bit range', () => {
    expect(() => packPosition({ commit: -1n, prepare: 0n })).toThrow(RangeError);
    expect(() => packPosition({ commit: 0n, prepare: -1n })).toThrow(RangeError);
    expect(() => packPosition({ commit: MAX_U64 + 1n, prepare: 0n })).toThrow(RangeError);
    expect(() => packPosition({ commit: 0n, prepare: MAX_U64 + 1n })).toThrow(RangeError);
    expect(() => unpackPosition(-1n)).toThrow(RangeError);
    expect(() => unpackPosition(1n << 128n)).toThrow(RangeError);
  });
});
