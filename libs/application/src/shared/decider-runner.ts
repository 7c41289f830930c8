import { Inject, Injectable } from '@nestjs/common';
import { CURRENT_SCHEMA_VERSION, type Decider, type DomainEvent } from '@app/domain';
import {
  type EventStorePort,
  type GlobalPosition,
  type RecordedEvent,
  StreamRevisionConflictError,
} from '../ports/event-store.port';
import type { RandomPort } from '../ports/random.port';
import { EVENT_STORE, RANDOM } from '../ports/tokens';
import { deterministicEventId } from './event-ids';
import { ConcurrentModificationError } from './application.errors';

export type RunResult<E> = { newEvents: E[]; position: GlobalPosition | undefined };

export type RunOptions = {
  /**
   * The stream cannot exist yet (it is named after an id just allocated): the first attempt
   * decides on the initial state and appends at `no_stream` without reading the stream. If the
   * stream exists after all, that append conflicts and the next attempt reads it as usual.
   */
  newStream?: boolean;
  /**
   * The stream guards no invariant (a per-user log of changes such as flag changes): decide on the
   * initial state and append at `any`, never reading a stream that only grows.
   */
  stateless?: boolean;
};

/**
 * The write path every command handler uses: read the stream, fold it, decide, append at the
 * revision that was read, and on a concurrent append start over (bounded).
 */
@Injectable()
export class DeciderRunner {
  static readonly MAX_ATTEMPTS = 8;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStorePort,
    @Inject(RANDOM) private readonly random: RandomPort,
  ) {}

  async run<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    streamId: string,
    command: C | ((state: S) => C),
    metadata: Record<string, unknown> = {},
    options: RunOptions = {},
  ): Promise<RunResult<E>> {
    const commandId = this.random.uuid();
    for (let attempt = 1; ; attempt++) {
      const { events, revision } = options.stateless
        ? { events: [], revision: 'any' as const }
        : attempt === 1 && options.newStream
          ? { events: [], revision: 'no_stream' as const }
          : await this.store.readStream(streamId);
      const state = (events as RecordedEvent[]).reduce(
        (s, e) => decider.evolve(s, { type: e.type, data: e.data } as unknown as E),
        decider.initialState(),
      );
      // A command may be built from the state (e.g. to take the stream's next id).
      const concrete = typeof command === 'function' ? (command as (s: S) => C)(state) : command;
      const newEvents = decider.decide(concrete, state);
      if (newEvents.length === 0) return { newEvents, position: undefined };
      const expected = revision === 'no_stream' ? 'no_stream' : revision;
      try {
        const { position } = await this.store.appendToStream(
          streamId,
          newEvents.map((event, index) => ({
            id: deterministicEventId(commandId, streamId, String(expected), index),
            type: event.type,
            data: event.data,
            metadata: { schemaVersion: CURRENT_SCHEMA_VERSION, commandId, ...metadata },
          })),
          { expectedRevision: expected },
        );
        return { newEvents, position };
      } catch (error) {
        if (error instanceof StreamRevisionConflictError) {
          if (attempt < DeciderRunner.MAX_ATTEMPTS) continue;
          throw new ConcurrentModificationError();
        }
        throw error;
      }
    }
  }
}
