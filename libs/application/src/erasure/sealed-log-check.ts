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
  let oldest: RecordedEvent | undefined;
  let after: bigint | undefined;
  for (let read = 0; read < scan && !oldest; ) {
    const page = await raw.readAll({ after, maxCount: Math.min(PAGE, scan - read) });
    if (page.length === 0) break;
    oldest = page.find(isSealed);
    read += page.length;
    after = page[page.length - 1].position;
  }
  if (oldest) found.push(oldest);
  if (oldest && raw.readAllBackwards) {
    let newest: RecordedEvent | undefined;
    let before: bigint | undefined;
    for (let read = 0; read < scan && !newest; ) {
      const page = await raw.readAllBackwards({ before, maxCount: Math.min(PAGE, scan - read) });
      if (page.length === 0) break;
      newest = page.find(isSealed);
      read += page.length;
      before = page[page.length - 1].position;
    }
    if (newest && newest.position !== oldest.position) found.push(newest);
  }
  // Opening is what a replay does: the key resolved (and unwrapped), the envelope opened.
  for (const event of found) await store.open([event]);
  return { opened: found.map((e) => e.position) };
}
