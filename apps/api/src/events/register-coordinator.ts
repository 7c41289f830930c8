import { Inject, Injectable } from '@nestjs/common';
import {
  ClientEventReactor,
  EVENT_STORE,
  type EventStorePort,
  EventQueues,
  type EventQueue,
  type GlobalPosition,
  ProjectionWaiter,
  READ_STORE,
  type ReadStorePort,
} from '@app/application';
import { DomainError } from '@app/domain';
import { ALL_PROJECTIONS, USER_MESSAGES_PROJECTION } from '@app/projections';

/** Reads of the state before giving up (each retry starts right after the latest commit). */
const MAX_ATTEMPTS = 50;

/**
 * Race-free POST /register: the initial state plus the events queued after it always equals a
 * fresh fetch (Zulip's guarantee, which it gets by applying the events queued during the fetch to
 * the fetched state — one apply_events per event type).
 *
 * Here the state is read at one known position of the global log instead:
 *
 * 1. The queue is created first, at the reactor's position P0, and buffers every event the
 *    reactor delivers from then on, with its log position. Nothing after P0 can be missed.
 * 2. Wait until the read models reach P0.
 * 3. Optimistic snapshot (a seqlock over the projection checkpoints): read every projection's
 *    checkpoint; P = the newest of them (and P0): nothing is applied beyond P. Wait until the
 *    read models reflect the log up to P (the projector commits documents and checkpoints
 *    together, atomically; the bulk user-message store may briefly run ahead of the documents,
 *    and then this wait ends with a commit). Read the checkpoints again, the state, and the
 *    checkpoints once more: all unchanged means no commit happened since the first read, so the
 *    state is exactly the log folded up to P. Changed: read again, right after the newest commit
 *    (commits come in bursts; under writes more frequent than one state read, registration gives
 *    up after 50 reads with a 503 — see docs/events.md). This holds whether the projector moves
 *    every checkpoint with each commit (today) or only those of projections with work to do.
 * 4. `queue.open(P)`: the buffered events and every later one at or below P are dropped (already
 *    in the state), the rest are queued in log order.
 *
 * Why not a read transaction: the read store is a port (SQLite here, MongoDB in servers mode);
 * checkpoints are its one cross-adapter notion of "which write is this", and reads of separate
 * collections need no shared transaction when nothing was committed between them. Why not
 * Zulip's apply_events: it duplicates every event type's semantics in a second place that must
 * stay in step with the projections; here the projections are the only fold.
 */
@Injectable()
export class RegisterCoordinator {
  private readonly checkpointNames = [...ALL_PROJECTIONS.map((p) => p.name), USER_MESSAGES_PROJECTION];

  constructor(
    private readonly queues: EventQueues,
    private readonly reactor: ClientEventReactor,
    private readonly waiter: ProjectionWaiter,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
  ) {}

  async register<T>(
    args: Parameters<EventQueues['create']>[0],
    readState: () => Promise<T>,
  ): Promise<{ queue: EventQueue; state: T; position: GlobalPosition }> {
    const start = this.reactor.position;
    const queue = this.queues.create(args);
    try {
      await this.waiter.waitFor(start < 0n ? undefined : start);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const before = await this.checkpoints();
        // Nothing applied beyond the newest checkpoint; once the waiter says every read model
        // reflects the log up to it (and up to `start`), the stores hold exactly the log to there.
        const position = [start, ...Object.values(before)].reduce((a, b) => (a > b ? a : b));
        await this.waiter.waitFor(position < 0n ? undefined : position);
        if (this.same(before, await this.checkpoints())) {
          const state = await readState();
          if (this.same(before, await this.checkpoints())) {
            queue.open(position);
            return { queue, state, position };
          }
        }
        // Start the next read right after the newest commit: the longest quiet stretch there is.
        await new Promise((resolve) => setTimeout(resolve, 1));
        await this.waiter.waitFor(await this.events.headPosition());
      }
      throw new DomainError('The server is too busy to register an event queue; please retry.', 'REQUEST_TIMEOUT', 503);
    } catch (error) {
      this.queues.delete(queue.id);
      throw error;
    }
  }

  /** The projections' checkpoints (a projection without one yet counts as -1). */
  private async checkpoints(): Promise<Record<string, GlobalPosition>> {
    const stored = await this.readStore.getCheckpoints();
    return Object.fromEntries(this.checkpointNames.map((name) => [name, stored[name] ?? -1n]));
  }

  private same(a: Record<string, GlobalPosition>, b: Record<string, GlobalPosition>): boolean {
    return this.checkpointNames.every((name) => a[name] === b[name]);
  }
}
