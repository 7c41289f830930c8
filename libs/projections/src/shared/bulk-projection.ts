import type { GlobalPosition, RecordedEvent } from '@app/application';

/**
 * A read model kept in a store of its own that takes changes in bulk (the per-user message
 * state), rather than as documents evolved one at a time. The projector hands it the relevant
 * events of each batch with the batch's last position; `apply` must write them and move the
 * checkpoint named `name` to that position atomically, skipping events at or below the stored
 * checkpoint, and keep that checkpoint where ReadStorePort.getCheckpoints reports it.
 */
export type BulkProjection = {
  name: string;
  handles: readonly string[];
  prepare(): Promise<void>;
  apply(events: RecordedEvent[], upTo: GlobalPosition): Promise<void>;
};
