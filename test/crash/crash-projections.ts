import { createHash } from 'node:crypto';
import { defineProjection, type Projection } from '@app/projections/shared/projection';

/**
 * Projections for the crash suite, shared by the worker process and the test. Each one makes a
 * double-applied, skipped or reordered event visible in its documents.
 */

/** Per stream: how many events were applied, and whether each arrived at the revision expected next. */
export type StreamTallyDoc = { stream: string; count: number; out_of_order: number; last_event_id: string };
export const streamTallyProjection: Projection<StreamTallyDoc> = defineProjection<StreamTallyDoc>({
  name: 'crash_stream_tally',
  collection: { name: 'crash_stream_tally', fields: [{ name: 'stream', type: 'string' }] },
  // Every event a crash-suite stream holds: the workers' events and the test's probes after each reopen.
  handles: ['CrashEvent', 'CrashProbe'],
  idsOf: (event) => [event.streamId],
  evolve: (doc, event, id) => {
    const count = doc?.count ?? 0;
    return {
      stream: id,
      count: count + 1,
      // A re-applied event (revision < count) or a skipped one (revision > count) is counted here.
      out_of_order: (doc?.out_of_order ?? 0) + (event.revision === BigInt(count) ? 0 : 1),
      last_event_id: event.id,
    };
  },
});

/** One document for the whole log: a hash chain over the event ids in the order they were applied. */
export type LogDigestDoc = { count: number; digest: string; last_position: string };
export const logDigestProjection: Projection<LogDigestDoc> = defineProjection<LogDigestDoc>({
  name: 'crash_log_digest',
  collection: { name: 'crash_log_digest', fields: [] },
  handles: ['CrashEvent'],
  idsOf: () => ['all'],
  evolve: (doc, event) => ({
    count: (doc?.count ?? 0) + 1,
    digest: createHash('sha256').update(`${doc?.digest ?? ''}:${event.id}`).digest('hex'),
    last_position: event.position.toString(),
  }),
});

/** Per appending worker: how many of its events were applied. */
export type WorkerTallyDoc = { worker: string; count: number };
export const workerTallyProjection: Projection<WorkerTallyDoc> = defineProjection<WorkerTallyDoc>({
  name: 'crash_worker_tally',
  collection: { name: 'crash_worker_tally', fields: [{ name: 'worker', type: 'string' }] },
  handles: ['CrashEvent'],
  idsOf: (event) => [String((event.data as { worker: string }).worker)],
  evolve: (doc, _event, id) => ({ worker: id, count: (doc?.count ?? 0) + 1 }),
});

export const CRASH_PROJECTIONS: Projection[] = [streamTallyProjection, logDigestProjection, workerTallyProjection];
