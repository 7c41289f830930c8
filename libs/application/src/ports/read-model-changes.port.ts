/**
 * Notifications that another process may have written the read models (moved a checkpoint). An API
 * process that leaves the projectors to a worker waits for read-your-writes on these instead of
 * polling the checkpoints: SQLite's `data_version` woken by a watch on the data directory
 * (embedded), a change stream on the checkpoints (MongoDB). A notification may be spurious, and
 * the adapter may miss some (a file system without change events): waiters re-check on a slow
 * timer as a fallback.
 */
export interface ReadModelChangesPort {
  /** Calls `listener` after each change seen; returns the function that unsubscribes it. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

export const READ_MODEL_CHANGES = Symbol('READ_MODEL_CHANGES');
