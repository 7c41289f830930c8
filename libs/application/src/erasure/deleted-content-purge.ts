import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import type { ClockPort } from '../ports/clock.port';
import { APP_CONFIG, CLOCK, LOGGER } from '../ports/tokens';
import { ProtectingEventStore } from './protecting-event-store';

/** How often the job looks for keys whose time has come. */
export const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * The purge job (docs/security.md, "How erasure works"): destroys the keys of messages deleted
 * more than ARCHIVED_DATA_VACUUMING_DELAY_DAYS ago (and of topics left without a message), in
 * bounded batches, in the process that runs the background jobs (the single process, or the
 * worker), at start and every PURGE_INTERVAL_MS. `npm run cli -- purge-deleted` runs it once.
 */
@Injectable()
export class DeletedContentPurge implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly events: ProtectingEventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runScheduledJobs) return;
    const tick = () => {
      this.running = this.run()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'the purge of deleted messages failed; it runs again later'))
        .finally(() => {
          this.running = undefined;
          if (this.timer !== undefined) this.timer = setTimeout(tick, PURGE_INTERVAL_MS).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Destroys every key due at `now`; answers how many. */
  async run(now: Date = this.clock.now()): Promise<number> {
    const destroyed = await this.events.purge(now);
    if (destroyed > 0) this.logger.info({ destroyed }, 'destroyed the keys of deleted messages: their texts are gone from the event log and its copies');
    return destroyed;
  }
}
