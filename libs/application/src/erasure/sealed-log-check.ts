import type { RecordedEvent } from '../ports/event-store.port';
import { envelopesOf, sealDecision } from './content-protection';
import type { ProtectingEventStore } from './protecting-event-store';

/** Events read from each end of the log looking for a sealed one (a few pages: the check must stay cheap). */
export const SEALED_LOG_CHECK_SCAN = 5000;
const PAGE = 500;

export type SealedLogCheck = {
  /** Positions of the sealed events opened: the oldest, then the newest (the same when the log has one). */
  opened: bigint[];
};

const isSealed = (event: RecordedEvent) => sealDecision(event.type) !== undefined && envelopesOf(event.data) !== undefined;

/**
 * The boot check (docs/deployment.md, "The event log cannot be opened"): opens the oldest sealed
 * event of the log, and its newest when the store can read backwards (the embedded one), each
 * looked for among the SEALED_LOG_CHECK_SCAN events at its end of the log. Throws
 * ContentKeyMissingError when its key is not in the content-key store or does not unwrap (a data
 * directory restored without its content-keys.sqlite or credentials.key), so that the process
 * refuses to start instead of replaying into an error. A key destroyed by an erasure is not an
 * error. Two key-store reads at most; a log without sealed events near its ends passes (the
 * projector stops on a missing key further in).
 */
export async function checkSealedLog(store: ProtectingEventStore, scan = SEALED_LOG_CHECK_SCAN): Promise<SealedLogCheck> {
  const raw = store.raw;
  const found: RecordedEvent[] = [];
  const oldest = await firstSealed((from, maxCount) => raw.readAll({ after: from, maxCount }), scan);
  if (oldest) found.push(oldest);
  const readAllBackwards = raw.readAllBackwards?.bind(raw);
  if (oldest && readAllBackwards) {
    const newest = await firstSealed((from, maxCount) => readAllBackwards({ before: from, maxCount }), scan);
    if (newest && newest.position !== oldest.position) found.push(newest);
  }
  // Opening is what a replay does: the key resolved (and unwrapped), the envelope opened.
  for (const event of found) await store.open([event]);
  return { opened: found.map((e) => e.position) };
}

/** The first sealed event among the first `scan` events of a paged read (from one end of the log). */
async function firstSealed(page: (from: bigint | undefined, maxCount: number) => Promise<RecordedEvent[]>, scan: number): Promise<RecordedEvent | undefined> {
  let from: bigint | undefined;
  for (let read = 0; read < scan; ) {
    const events = await page(from, Math.min(PAGE, scan - read));
    if (events.length === 0) return undefined;
    const sealed = events.find(isSealed);
    if (sealed) return sealed;
    read += events.length;
    from = events[events.length - 1].position;
  }
  return undefined;
}
