import type { ScrubResult, StorageScrubberPort } from '@app/application';

/**
 * The servers set: deleted MongoDB documents leave no WAL of ours to truncate; what WiredTiger
 * keeps in free blocks until it reuses them is in docs/security.md ("Read models").
 */
export class NoStorageScrubbing implements StorageScrubberPort {
  request(): void {}

  async scrubNow(): Promise<ScrubResult> {
    return { databases: 0, incomplete: 0 };
  }

  async close(): Promise<void> {}
}
