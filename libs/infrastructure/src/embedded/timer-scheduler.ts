import type { ClockPort, JobHandler, ScheduledJob, SchedulerPort } from '@app/application';

/** setTimeout's limit; longer waits are re-armed when the timer fires early. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Entry = { job: ScheduledJob; timer?: NodeJS.Timeout; state: 'waiting' | 'ready' | 'running'; attempts: number; done?: Promise<void> };

/**
 * The embedded scheduler: in-process timers. Jobs live only in memory, so they do not survive a
 * restart by themselves: the application re-arms them from its read models at boot (for scheduled
 * messages, every undelivered and unfailed one — the same query as Zulip's delivery worker).
 *
 * Timers are computed from the injected clock; tests with a fake clock call `runDue()` after
 * moving it. At most `concurrency` handlers run at once (10,000 messages due at boot queue up
 * instead of starting 10,000 deliveries together). A handler that throws is retried after
 * `retryDelayMs`, up to `maxAttempts`.
 */
export class TimerScheduler implements SchedulerPort {
  private readonly jobs = new Map<string, Entry>();
  private readonly ready: Entry[] = [];
  private handler: JobHandler | undefined;
  private concurrency = 32;
  private running = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly clock: ClockPort,
    private readonly options: { retryDelayMs?: number; maxAttempts?: number; onError?: (error: unknown, job: ScheduledJob) => void } = {},
  ) {}

  async schedule(job: ScheduledJob): Promise<void> {
    if (this.closed || this.jobs.has(job.id)) return;
    const entry: Entry = { job, state: 'waiting', attempts: 0 };
    this.jobs.set(job.id, entry);
    this.arm(entry);
  }

  async cancel(jobId: string): Promise<void> {
    const entry = this.jobs.get(jobId);
    if (!entry || entry.state === 'running') return;
    clearTimeout(entry.timer);
    this.jobs.delete(jobId);
    const index = this.ready.indexOf(entry);
    if (index >= 0) this.ready.splice(index, 1);
  }

  async process(handler: JobHandler, options: { concurrency?: number } = {}): Promise<void> {
    this.handler = handler;
    this.concurrency = options.concurrency ?? this.concurrency;
    for (const entry of this.jobs.values()) if (entry.state === 'waiting') this.arm(entry);
  }

  async pendingJobIds(): Promise<string[]> {
    return [...this.jobs.keys()];
  }

  /** Runs every job due by the clock now (and waits for them): the fake-clock tests' trigger. */
  async runDue(): Promise<void> {
    const now = this.clock.now().getTime();
    const due = [...this.jobs.values()].filter((e) => e.job.runAt.getTime() <= now);
    for (const entry of due) if (entry.state === 'waiting') this.enqueue(entry);
    await this.idle();
  }

  /** Resolves when nothing is ready or running. */
  idle(): Promise<void> {
    if (this.running === 0 && this.ready.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.jobs.values()) clearTimeout(entry.timer);
    this.ready.length = 0;
    await this.idle();
    this.jobs.clear();
  }

  private arm(entry: Entry, delayMs?: number): void {
    if (!this.handler || this.closed) return;
    clearTimeout(entry.timer);
    const wait = delayMs ?? Math.max(0, entry.job.runAt.getTime() - this.clock.now().getTime());
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (entry.state !== 'waiting' || this.jobs.get(entry.job.id) !== entry) return;
      // Early (a clamped long wait, or a clock that moved back): wait again.
      if (entry.job.runAt.getTime() > this.clock.now().getTime()) return this.arm(entry);
      this.enqueue(entry);
    }, Math.min(wait, MAX_TIMER_MS));
    entry.timer.unref?.();
  }

  private enqueue(entry: Entry): void {
    clearTimeout(entry.timer);
    entry.state = 'ready';
    this.ready.push(entry);
    this.pump();
  }

  private pump(): void {
    while (this.handler && this.running < this.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      entry.state = 'running';
      this.running++;
      void this.run(entry);
    }
    if (this.running === 0 && this.ready.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async run(entry: Entry): Promise<void> {
    const { id, name, data } = entry.job;
    try {
      await this.handler!({ id, name, data });
      this.jobs.delete(id);
    } catch (error) {
      entry.attempts++;
      this.options.onError?.(error, entry.job);
      if (entry.attempts < (this.options.maxAttempts ?? 5) && !this.closed) {
        entry.state = 'waiting';
        this.arm(entry, this.options.retryDelayMs ?? 1000);
      } else {
        this.jobs.delete(id);
      }
    } finally {
      this.running--;
      this.pump();
    }
  }
}
