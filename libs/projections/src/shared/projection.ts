import type { CollectionSpec, RecordedEvent } from '@app/application';
import type { DomainEvent } from '@app/domain';

/**
 * One of a projection's domain events as the store delivers it: a union by `type`, so that a
 * `switch (event.type)` (or an `if`) narrows `event.data` to that event's payload.
 */
export type Recorded<E extends DomainEvent> = E extends DomainEvent ? RecordedEvent<E['type'], E['data']> : never;

/**
 * A read model: a pure `evolve(doc | null, event) → doc | null` over the documents of one
 * collection. `null` deletes the document. The projector loads, evolves and saves; the projection
 * never touches storage. `E` is the union of the domain events it reads (`handles` lists their
 * types).
 */
export type Projection<D extends object = any, E extends DomainEvent = DomainEvent, P = unknown> = {
  /** Checkpoint name. Change it (e.g. `users.v2`) when the document shape changes, to force a rebuild. */
  name: string;
  collection: CollectionSpec;
  /** Event types this projection reads; others are skipped without loading anything. */
  handles: readonly E['type'][];
  /** Ids of the documents an event touches. */
  idsOf(event: Recorded<E>): string[];
  /**
   * What the documents one event touches share, worked out once per event (an index of a large
   * event's entries by document id): the projector calls it before evolving the event's documents
   * and passes the result to each `evolve` of that event; nothing keeps it afterwards.
   */
  prepare?(event: Recorded<E>): P;
  /**
   * Ids of more documents the event touches, read from the documents `idsOf` named as they are
   * just before the event (null: none): for an event that does not carry what it touches (a
   * message's deletion, whose content named the files it linked). The projector loads them and
   * evolves them with the event after the documents `idsOf` named.
   */
  followIds?(event: Recorded<E>, docOf: (id: string) => D | null): string[];
  evolve(doc: D | null, event: Recorded<E>, id: string, prepared: P): D | null;
};

/** A projection of documents `D` from the events `E` (give both: `defineProjection<UserDocument, UserEvent>({...})`). */
export const defineProjection = <D extends object, E extends DomainEvent = DomainEvent, P = void>(projection: Projection<D, E, P>): Projection<D, E, P> => projection;

export { unixSeconds } from '@app/domain';
