import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import type { Logger } from 'pino';
import { APP_CONFIG, LOGGER } from '../ports/tokens';
import { RunMessageRetentionCommand } from './message-retention.command';

/** The first run after boot: soon, so that a process restarted more often than the interval still runs it. */
const FIRST_RUN_DELAY_MS = 60_000;

/**
 * Runs the message retention job (RunMessageRetentionCommand) every
 * MESSAGE_RETENTION_INTERVAL_SECONDS in the process that runs scheduled jobs (the single process,
 * or the worker), one run at a time; Zulip runs archive_messages daily from cron.
 */
@Injectable()
export class MessageRetentionTimer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const intervalMs = this.config.messageRetentionIntervalSeconds * 1000;
    if (!this.config.runScheduledJobs || intervalMs <= 0) return;
    this.schedule(Math.min(FIRST_RUN_DELAY_MS, intervalMs), intervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }

  private schedule(delayMs: number, intervalMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.commands
        .execute(new RunMessageRetentionCommand())
        .then((result) => {
          if (result.deleted > 0) this.logger.info({ deleted: result.deleted, realms: result.realms }, 'message retention: expired messages deleted');
        })
        .catch((error: unknown) => this.logger.error({ err: error }, 'message retention run failed'))
        .finally(() => this.schedule(intervalMs, intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}
