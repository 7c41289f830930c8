/**
 * EventStoreDB orders `$all` by a pair of unsigned 64-bit log positions, `{commit, prepare}`
 * (`Position` in @eventstore/db-client: "a structure referring to a potential logical record
 * position in the EventStoreDB transaction file"), compared commit first, then prepare.
 *
 * The port wants one bigint whose numeric order is log order. Putting the commit position in the
 * high 64 bits and the prepare position in the low 64 bits gives exactly that lexicographic order,
 * and the mapping is reversible, so a checkpoint can be turned back into a `fromPosition`.
 */
export type EsdbPosition = { commit: bigint; prepare: bigint };

const BITS = 64n;
const MAX_U64 = (1n << BITS) - 1n;

const assertU64 = (name: string, value: bigint) => {
  if (value < 0n || value > MAX_U64) throw new RangeError(`${name} position ${value} is not an unsigned 64-bit integer`);
};

export function packPosition(position: EsdbPosition): bigint {
  assertU64('commit', position.commit);
  assertU64('prepare', position.prepare);
  return (position.commit << BITS) | position.prepare;
}

export function unpackPosition(packed: bigint): EsdbPosition {
  if (packed < 0n || packed >> (2n * BITS) !== 0n) throw new RangeError(`${packed} is not a packed $all position`);
  return { commit: packed >> BITS, prepare: packed & MAX_U64 };
}
