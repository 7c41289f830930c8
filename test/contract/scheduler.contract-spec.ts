import { randomUUID } from 'node:crypto';
import { describeIfServer, schedulerContract } from '@app/testing';
import { SystemClock, TimerScheduler } from '@app/infrastructure';
import { BullmqScheduler } from '@app/infrastructure/bullmq/bullmq-scheduler';

schedulerContract('embedded (timers)', async () => ({
  open: async () => new TimerScheduler(new SystemClock(), { retryDelayMs: 100 }),
  durable: false,
  cleanup: async () => undefined,
}));

// CI sets REDIS_URL to a real redis-server; locally: `redis-server --port 6399 --daemonize yes`
// and REDIS_URL=redis://127.0.0.1:6399. Each test uses its own key prefix.
describeIfServer('REDIS_URL', 'SchedulerPort contract: servers (BullMQ)', (url) => {
  schedulerContract('servers (BullMQ)', async () => {
    const prefix = `contract-${randomUUID()}`;
    return {
      open: async () => new BullmqScheduler(url, new SystemClock(), { prefix }),
      durable: true,
      cleanup: async () => {
        const s = new BullmqScheduler(url, new SystemClock(), { prefix });
        await s.obliterate();
        await s.close();
      },
    };
  });
});
