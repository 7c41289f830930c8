import type { GlobalPosition } from '../ports/event-store.port';

/**
 * Read-your-writes: a handler awaits `waitFor(position)` after appending so that its response is
 * sent only once every read model reflects the append. Implemented by the projector (in process)
 * or, when the projectors run in another process (apps/worker), by reading their checkpoints
 * whenever the read store says they moved (CheckpointWaiter).
 */
export abstract class ProjectionWaiter {
  /** `timeoutMs` defaults to PROJECTION_WAIT_TIMEOUT_MS; a timeout rejects with ProjectionTimeoutError. */
  abstract waitFor(position: GlobalPosition | undefined, timeoutMs?: number): Promise<void>;

  /**
   * Runs `work` with no timeout on its waits (boot-time work before the server listens, such as
   * the development organization: in the split layout the worker may start after the API).
   * Projectors in this process never keep a write waiting long, so only CheckpointWaiter needs it.
   */
  patiently<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
