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
}
