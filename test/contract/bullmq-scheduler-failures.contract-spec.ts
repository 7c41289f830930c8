import { randomUUID } from 'node:crypto';
import { SystemClock } from '@app/infrastructure';
import { BullmqScheduler, FAILED_JOB_RETENTION_SECONDS } from '@app/infrastructure/bullmq/bullmq-scheduler';
import { describeIfServer } from '@app/testing';

/**
 * What BullMQ does with a delivery job that keeps failing (a store outage): it is retried, each
 * failure logged, and once its attempts are exhausted it is kept in the failed set for a while
 * (removeOnFail by age), logged as failed for good; the worker's sweep then delivers the message.
 * Against a real redis-server (REDIS_URL), each test under its own key prefix.
 */
describeIfServer('REDIS_URL', 'BullMQ scheduler: failed jobs kept for a while and logged', (url) => {
  const opened: BullmqScheduler[] = [];
  const open = (options: ConstructorParameters<typeof BullmqScheduler>[2]) => {
    const scheduler = new BullmqScheduler(url, new SystemClock(), { prefix: `failures-${randomUUID()}`, ...options });
    opened.push(scheduler);
    return scheduler;
  };
  afterEach(async () => {
    for (const s of opened.splice(0)) {
      await s.obliterate().catch(() => undefined);
      await s.close();
    }
  });
  const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const recorder = () => {
    const entries: { level: 'warn' | 'error'; msg: string; obj: Record<string, unknown> }[] = [];
    return {
      entries,
      logger: {
        warn: (obj: object, msg: string) => entries.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
        error: (obj: object, msg: string) => entries.push({ level: 'error', msg, obj: obj as Record<string, unknown> }),
      },
    };
  };

  it('retries a failing job, logs every failure, keeps it in the failed set with an age bound', async () => {
    const log = recorder();
    const scheduler = open({ attempts: 2, backoffMs: 10, logger: log.logger });
    await scheduler.process(async () => {
      throw new Error('read store unavailable');
    });
    await scheduler.schedule({ id: 'job-1', name: 'deliver-scheduled-message', data: { scheduledMessageId: 1 }, runAt: new Date() });
    await eventually(async () => (await scheduler.failedJobIds()).includes('job-1'), 'the job to fail for good');
    expect(log.entries.map((e) => e.level)).toEqual(['warn', 'error']);
    expect(log.entries[1]).toMatchObject({ msg: expect.stringMatching(/failed for good/), obj: { jobId: 'job-1', attemptsMade: 2, attempts: 2 } });
    expect((log.entries[1].obj.err as Error).message).toBe('read store unavailable');
    const job = await (scheduler as unknown as { queue: { getJob(id: string): Promise<{ opts: { removeOnFail?: unknown } }> } }).queue.getJob('job-1');
    expect(job.opts.removeOnFail).toEqual({ age: FAILED_JOB_RETENTION_SECONDS });
    expect(FAILED_JOB_RETENTION_SECONDS).toBeGreaterThanOrEqual(24 * 3600);
  }, 20_000);

  it('drops failed jobs older than the retention when later ones fail (kept for a while, not forever)', async () => {
    const scheduler = open({ attempts: 1, failedRetentionSeconds: 1 });
    await scheduler.process(async () => {
      throw new Error('still down');
    });
    await scheduler.schedule({ id: 'old', name: 'deliver-scheduled-message', data: {}, runAt: new Date() });
    await eventually(async () => (await scheduler.failedJobIds()).includes('old'), 'the first failure');
    await new Promise((r) => setTimeout(r, 2100));
    await scheduler.schedule({ id: 'new', name: 'deliver-scheduled-message', data: {}, runAt: new Date() });
    await eventually(async () => (await scheduler.failedJobIds()).includes('new'), 'the second failure');
    await eventually(async () => !(await scheduler.failedJobIds()).includes('old'), 'the old failure to be removed');
    expect(await scheduler.failedJobIds()).toEqual(['new']);
  }, 20_000);
});
