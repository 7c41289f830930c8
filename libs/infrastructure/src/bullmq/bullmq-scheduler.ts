import { Queue, Worker } from 'bullmq';
import { Redis as IORedis } from 'ioredis';
import type { ClockPort, JobHandler, ScheduledJob, SchedulerPort } from '@app/application';

/** One queue for every delayed job of the product; jobs are told apart by name. */
export const SCHEDULER_QUEUE = 'scheduled-jobs';

/**
 * How long a job that exhausted its attempts stays in the queue's failed set, for operators to
 * inspect (`queue.getFailed()`, Bull Board): a week. Its message is delivered anyway by the
 * worker's sweep once the stores are back (ScheduledDeliveries).
 */
export const FAILED_JOB_RETENTION_SECONDS = 7 * 24 * 3600;

export type SchedulerLogger = {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

/**
 * The servers scheduler: BullMQ delayed jobs in Redis (docs.bullmq.io/guide/jobs/delayed).
 *
 * - `schedule` is `queue.add(name, data, {jobId, delay})`: BullMQ ignores an add whose job id
 *   already exists, which makes scheduling idempotent while the job waits or runs; completed jobs
 *   are removed so the same id can be scheduled again later. An add after the run completed (a
 *   re-arm racing the delivery) therefore runs the job again, as the port allows and the embedded
 *   adapter does too; the delivery decider makes that second run a no-op. Completed jobs are not
 *   kept (removeOnComplete by age) to dedup such re-arms: that would make this adapter refuse
 *   re-arms that the embedded one accepts, and cost Redis memory for every delivered message.
 * - `cancel` is `queue.remove(jobId)`, which leaves a job that a worker holds (locked) alone.
 * - `process` starts a BullMQ Worker. BullMQ hands each job to one worker under a lock; a worker
 *   that dies mid-job has the job marked stalled and run again, so handlers must be idempotent.
 *   Failed handlers are retried with exponential backoff; every failed attempt is logged, and a
 *   job that exhausted its attempts is kept (removeOnFail by age) for inspection.
 */
export class BullmqScheduler implements SchedulerPort {
  private readonly connection: IORedis;
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private workerConnection: IORedis | undefined;

  constructor(
    private readonly url: string,
    private readonly clock: ClockPort,
    private readonly options: {
      queueName?: string;
      prefix?: string;
      attempts?: number;
      backoffMs?: number;
      logger?: SchedulerLogger;
      /** How long a job that exhausted its attempts is kept (default FAILED_JOB_RETENTION_SECONDS). */
      failedRetentionSeconds?: number;
    } = {},
  ) {
    // The producer's calls fail fast when Redis is away (the caller logs it and the boot re-arm
    // repairs it); only the Worker's blocking connection must retry forever (BullMQ's advice).
    this.connection = new IORedis(url, { maxRetriesPerRequest: 1 });
    this.queue = new Queue(this.queueName, { connection: this.connection, prefix: options.prefix });
  }

  private get queueName() {
    return this.options.queueName ?? SCHEDULER_QUEUE;
  }

  async schedule(job: ScheduledJob): Promise<void> {
    const delay = Math.max(0, job.runAt.getTime() - this.clock.now().getTime());
    await this.queue.add(job.name, job.data, {
      jobId: job.id,
      delay,
      attempts: this.options.attempts ?? 5,
      backoff: { type: 'exponential', delay: this.options.backoffMs ?? 1000 },
      removeOnComplete: true,
      // Kept (not removed) so that a job id that failed is not silently armed again by an add:
      // BullMQ ignores an add whose id exists, and the sweep delivers the message instead.
      removeOnFail: { age: this.options.failedRetentionSeconds ?? FAILED_JOB_RETENTION_SECONDS },
    });
  }

  async cancel(jobId: string): Promise<void> {
    await this.queue.remove(jobId);
  }

  async process(handler: JobHandler, options: { concurrency?: number } = {}): Promise<void> {
    if (this.worker) throw new Error('this scheduler already processes jobs');
    this.workerConnection = new IORedis(this.url, { maxRetriesPerRequest: null });
    this.worker = new Worker(
      this.queueName,
      async (job) => handler({ id: job.id ?? '', name: job.name, data: job.data as Record<string, unknown> }),
      { connection: this.workerConnection, prefix: this.options.prefix, concurrency: options.concurrency ?? 8 },
    );
    const logger = this.options.logger;
    // A failing handler is retried by BullMQ; each failure is logged, the last one as such.
    this.worker.on('failed', (job, error) => {
      if (!job) return logger?.error({ err: error }, 'a scheduled job failed');
      const attempts = job.opts.attempts ?? 1;
      const final = job.attemptsMade >= attempts;
      logger?.[final ? 'error' : 'warn'](
        { err: error, jobId: job.id, name: job.name, attemptsMade: job.attemptsMade, attempts },
        final ? 'scheduled job failed for good (kept in the failed set; the sweep retries the delivery)' : 'scheduled job failed; BullMQ retries it',
      );
    });
    this.worker.on('error', (error) => logger?.error({ err: error }, 'BullMQ worker error'));
    await this.worker.waitUntilReady();
  }

  /** Ids of the jobs that exhausted their attempts and are kept for inspection. */
  async failedJobIds(): Promise<string[]> {
    const jobs = await this.queue.getJobs(['failed']);
    return jobs.map((j) => j.id ?? '').filter((id) => id !== '');
  }

  async pendingJobIds(): Promise<string[]> {
    const jobs = await this.queue.getJobs(['delayed', 'waiting', 'active', 'prioritized']);
    return jobs.map((j) => j.id ?? '').filter((id) => id !== '');
  }

  /** Removes every job of the queue (tests and benchmarks only). */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.connection.disconnect();
  }
}
