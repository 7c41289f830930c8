import type { StreamRevision } from './event-store.port';

/**
 * A decider's folded state at one revision of its stream (docs/operations.md, "Command reads and snapshots").
 * Snapshots are a cache of the log: losing them costs one whole read of each stream, never a
 * wrong decision, because the runner checks a snapshot against the stream before using it.
 */
export type DeciderSnapshot = {
  streamId: string;
  /** The decider's snapshot name (SnapshotCodec.name). */
  decider: string;
  /** The decider's snapshot version, as the runner stamps it; a snapshot of another version is ignored. */
  version: string;
  /** Revision of the last event folded into `state`. */
  revision: StreamRevision;
  /** Id of the event at `revision`: a log replaced since (an import, a restore) does not match it. */
  eventId: string;
  /** The encoded state, as JSON text. */
  state: string;
};

/**
 * Latest snapshot per (stream, decider). Adapters: SQLite (`DATA_DIR/snapshots.sqlite`) with the embedded read store,
 * MongoDB (`_snapshots`) with the servers one (libs/infrastructure). The behaviour is pinned by
 * libs/testing/src/contracts/snapshot-store.contract.ts.
 */
export interface SnapshotStorePort {
  /** The stored snapshot of this stream for this decider (whatever its version), if any. */
  load(streamId: string, decider: string): Promise<DeciderSnapshot | undefined>;

  /**
   * Stores the snapshot as the latest of its (stream, decider), unless the stored one has the
   * same version and a revision at least as high (concurrent savers: the newest wins). A snapshot
   * of another version replaces whatever is stored.
   */
  save(snapshot: DeciderSnapshot): Promise<void>;

  /**
   * Deletes every snapshot of a decider, whatever its stream and version (snapshots written
   * before its state stopped holding secrets: the push devices' before version 3). Answers how many went.
   */
  removeDecider(decider: string): Promise<number>;
  /** Deletes every snapshot of these streams (whatever the decider): erasure of what they folded. */
  delete(streamIds: readonly string[]): Promise<void>;

  close(): Promise<void>;
}
