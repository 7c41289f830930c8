import type { Provider } from '@nestjs/common';
import { CLOCK, type ClockPort, LOGGER, SCHEDULER, type SchedulerPort } from '@app/application';
import type { AppConfig } from '@app/config';
import { TimerScheduler } from './embedded/timer-scheduler';
import type { Logger } from './system/logger';

/**
 * Delayed jobs: BullMQ on REDIS_URL when SCHEDULER_DRIVER (default: STORAGE_DRIVER) is servers,
 * in-process timers otherwise. BullMQ and ioredis are loaded only when chosen.
 */
export async function openScheduler(config: AppConfig, clock: ClockPort, logger?: Logger): Promise<SchedulerPort> {
  if (config.schedulerDriver === 'servers') {
    const { BullmqScheduler } = await import('./bullmq/bullmq-scheduler');
    return new BullmqScheduler(config.redisUrl, clock, { logger, prefix: config.storeNamespace ? `bull-${config.storeNamespace}` : undefined });
  }
  return new TimerScheduler(clock, { onError: (error, job) => logger?.error({ err: error, jobId: job.id }, 'scheduled job failed') });
}

/** Closed with the application, before the stores (Nest calls the hook on the instance the factory returned). */
export const schedulerProvider = (config: AppConfig): Provider => ({
  provide: SCHEDULER,
  useFactory: async (clock: ClockPort, logger: Logger) => {
    const scheduler = await openScheduler(config, clock, logger);
    // Before the adapters close (onApplicationShutdown): running deliveries still need the stores.
    return Object.assign(scheduler, { beforeApplicationShutdown: () => scheduler.close() });
  },
  inject: [CLOCK, LOGGER],
});
