import type { EventStorePort, GlobalPosition } from '../ports/event-store.port';
import { rawEventStore } from '../shared/event-upcasting';

/** Beyond this many events, countEventsBetween estimates instead of reading on. */
export const COUNT_READ_LIMIT = 50_000;

/**
 * How many events lie in (after, upTo]: progress, lag and ETA are counted in events, never in raw
 * positions (EventStoreDB's packed commit<<64|prepare positions are numbers near 1e20, and their
 * differences are byte distances in its log, not events). A store that counts cheaply (embedded
 * SQLite) answers exactly; otherwise the events are read and counted, up to `limit`, and past it
 * the rest is estimated from the positions at the rate counted so far (`exact: false`).
 */
export async function countEventsBetween(
  store: EventStorePort,
  after: GlobalPosition | undefined,
  upTo: GlobalPosition | undefined,
  options: { limit?: number; pageSize?: number } = {},
): Promise<{ count: number; exact: boolean }> {
  if (upTo === undefined || (after !== undefined && after >= upTo)) return { count: 0, exact: true };
  if (store.countEvents) return { count: await store.countEvents({ after, upTo }), exact: true };
  const raw = rawEventStore(store);
  const limit = options.limit ?? COUNT_READ_LIMIT;
  let counted = 0;
  let cursor = after;
  let base: GlobalPosition | undefined = after;
  while (counted < limit) {
    const page = await raw.readAll({ after: cursor, maxCount: Math.min(options.pageSize ?? 1000, limit - counted) });
    if (page.length === 0) return { count: counted, exact: true };
    for (const event of page) {
      if (event.position > upTo) return { count: counted, exact: true };
      base ??= event.position - 1n;
      counted++;
      cursor = event.position;
      if (cursor === upTo) return { count: counted, exact: true };
    }
  }
  // Extrapolate: the events counted span (base, cursor]; the rest of (base, upTo] at the same density.
  const span = cursor! - base!;
  const estimate = span > 0n ? Number((BigInt(counted) * (upTo - base!)) / span) : counted;
  return { count: Math.max(counted, estimate), exact: false };
}
