import { hash } from 'node:crypto';

/**
 * A UUID derived from the command, the stream, the revision the append expects and the event's
 * index. Retrying the same append (after a timeout, say) sends the same ids, which EventStoreDB
 * and the embedded store both treat as an idempotent repeat; a different command, or the same
 * command after re-deciding at another revision, gets different ids.
 */
export function deterministicEventId(commandId: string, streamId: string, expected: string, index: number): string {
  // crypto.hash: the one-shot digest (Node >= 20.12), without a Hash object per event.
  const hex = hash('sha256', `${commandId}\u0000${streamId}\u0000${expected}\u0000${index}`, 'hex');
  // Shape it as an RFC 4122 version-5-style UUID (version and variant bits set).
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
