import type { CollectionSpec, RecordedEvent } from '@app/application';

/**
 * A read model: a pure `evolve(doc | null, event) → doc | null` over the documents of one
 * collection. `null` deletes the document. The projector loads, evolves and saves; the projection
 * never touches storage.
 */
export type Projection<D extends object = any> = {
  /** Checkpoint name. Change it (e.g. `users.v2`) when the document shape changes, to force a rebuild. */
  name: string;
  collection: CollectionSpec;
  /** Event types this projection reads; others are skipped without loading anything. */
  handles: readonly string[];
  /** Ids of the documents an event touches. */
  idsOf(event: RecordedEvent): string[];
  evolve(doc: D | null, event: RecordedEvent, id: string): D | null;
};

export const defineProjection = <D extends object>(projection: Projection<D>): Projection<D> => projection;

export { unixSeconds } from '@app/domain';
