import { hash } from 'node:crypto';

/** A version-7 UUID (RFC 9562): its first 48 bits are a time in milliseconds. */
const TIME_ORDERED = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A UUID derived from the command, the stream, the revision the append expects and the event's
 * index. Retrying the same append (after a timeout, say) sends the same ids, which EventStoreDB
 * and the embedded store both treat as an idempotent repeat; a different command, or the same
 * command after re-deciding at another revision, gets different ids.
 *
 * A time-ordered command id (version 7, as DeciderRunner draws them in production) lends its
 * 48-bit time to the event ids, which are then version 7 too (the other 74 bits from the hash):
 * the embedded store's unique index on event ids takes each new id at its end, one page for a
 * whole group commit, instead of a random page of an index that grows with the log (issue #23).
 * Any other command id gives a version-5-style id, all of it from the hash, as before.
 */
export function deterministicEventId(commandId: string, streamId: string, expected: string, index: number): string {
  // crypto.hash: the one-shot digest (Node >= 20.12), without a Hash object per event.
  const hex = hash('sha256', `${commandId}\u0000${streamId}\u0000${expected}\u0000${index}`, 'hex');
  // Shaped as an RFC 4122 UUID (version and variant bits set).
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const rest = `${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  if (TIME_ORDERED.test(commandId)) return `${commandId.slice(0, 13)}-7${rest}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${rest}`;
}
