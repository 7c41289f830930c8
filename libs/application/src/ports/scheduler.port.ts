/**
 * The scheduler port: delayed jobs, idempotent by job id, that survive restarts (servers: BullMQ
 * keeps them in Redis; embedded: timers the application re-arms from its read models at boot).
 *
 * Delivery is at least once: a job runs at or after `runAt`; a handler that throws is retried; a
 * crash mid-run may run it again; and an id is deduplicated only while its job waits or runs, so
 * scheduling it again after its run completed (a re-arm racing the delivery) runs it again. Handlers
 * must therefore be idempotent (the scheduled-message delivery is: its decider refuses a second
 * delivery). Both adapters behave so (test/contract/scheduler.contract-spec.ts).
 */
export type ScheduledJob = {
  /** Unique id. Scheduling an id that is already waiting or running changes nothing (no duplicate); once its run completed, the id is free again. */
  id: string;
  name: string;
  data: Record<string, unknown>;
  runAt: Date;
};

export type JobHandler = (job: { id: string; name: string; data: Record<string, unknown> }) => Promise<void>;

export interface SchedulerPort {
  /** Adds the job unless a job with its id is already waiting or running. */
  schedule(job: ScheduledJob): Promise<void>;
  /** Removes a waiting job; a job already running finishes (no-op when there is none). */
  cancel(jobId: string): Promise<void>;
  /** Makes this process run due jobs through `handler` (one handler per process). */
  process(handler: JobHandler, options?: { concurrency?: number }): Promise<void>;
  /** Ids of the jobs waiting to run (diagnostics and tests). */
  pendingJobIds(): Promise<string[]>;
  /** Stops processing and releases connections and timers; waiting jobs stay (servers) or are re-armed at boot (embedded). */
  close(): Promise<void>;
}
