import type { GlobalPosition } from '../ports/event-store.port';

/**
 * Read-your-writes: a handler awaits `waitFor(position)` after appending so that its response is
 * sent only once every read model reflects the append. Implemented by the projector (in process)
 * or by polling checkpoints (when projectors run in the worker).
 */
export abstract class ProjectionWaiter {
  abstract waitFor(position: GlobalPosition | undefined): Promise<void>;
}
