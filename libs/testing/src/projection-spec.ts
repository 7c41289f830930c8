import type { RecordedEvent } from '@app/application';
import type { Projection } from '@app/projections';

let nextPosition = 1n;

/** Wraps domain events as recorded events with increasing positions, as the store would deliver them. */
export function recorded(events: { type: string; data: object }[], streamId = 'test-1'): RecordedEvent[] {
  return events.map((event, index) => ({
    id: `00000000-0000-4000-8000-${String(nextPosition).padStart(12, '0')}`,
    streamId,
    revision: BigInt(index),
    position: nextPosition++,
    type: event.type,
    data: event.data,
    metadata: { schemaVersion: 1 },
    recordedAt: new Date(0).toISOString(),
  }));
}

/** Replays events through a projection in memory; returns the documents by id. */
export function replay<D extends object>(projection: Projection<D>, events: RecordedEvent[]): Map<string, D> {
  const docs = new Map<string, D>();
  for (const event of events) {
    if (!projection.handles.includes(event.type)) continue;
    const prepared = projection.prepare?.(event);
    const ids = projection.idsOf(event);
    const more = projection.followIds?.(event, (id) => docs.get(id) ?? null).filter((id) => !ids.includes(id)) ?? [];
    for (const id of [...ids, ...more]) {
      const next = projection.evolve(docs.get(id) ?? null, event, id, prepared);
      if (next === null) docs.delete(id);
      else docs.set(id, next);
    }
  }
  return docs;
}
