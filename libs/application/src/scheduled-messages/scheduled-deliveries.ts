import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import type { EventStorePort } from '../ports/event-store.port';
import type { SchedulerPort } from '../ports/scheduler.port';
import { APP_CONFIG, EVENT_STORE, LOGGER, SCHEDULER } from '../ports/tokens';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeliverScheduledMessageCommand } from './schedule-message.command';
import { DELIVER_SCHEDULED_MESSAGE_JOB, ScheduledMessageJobs } from './scheduled-message-jobs';
import { ScheduledMessageQueries } from './scheduled-message-queries';

/**
 * At boot: makes this process run due deliveries (RUN_SCHEDULED_JOBS; in servers mode typically
 * apps/worker only), and re-arms every scheduled message still awaiting delivery from the read
 * model — the embedded scheduler's timers died with the last process; BullMQ's jobs survived but a
 * write whose scheduler call was lost (a crash, Redis briefly away) is re-armed too. Re-arming is
 * idempotent (job ids derive from the message and its time), so every instance may do it.
 */
@Injectable()
export class ScheduledDeliveries implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** Resolves once the re-arm has scheduled everything (tests and benchmarks wait on it). */
  rearmed: Promise<number> = Promise.resolve(0);
  private stopped = false;
  private stop!: () => void;
  private readonly stopping = new Promise<void>((resolve) => (this.stop = resolve));

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ScheduledMessageQueries,
    private readonly jobs: ScheduledMessageJobs,
    private readonly projections: ProjectionWaiter,
    @Inject(SCHEDULER) private readonly scheduler: SchedulerPort,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.runScheduledJobs || this.config.schedulerDriver === 'embedded') {
      await this.scheduler.process(async ({ name, data }) => {
        if (name !== DELIVER_SCHEDULED_MESSAGE_JOB) return;
        await this.commands.execute(new DeliverScheduledMessageCommand(Number(data.scheduledMessageId)));
      });
    }
    this.rearmed = this.rearm().catch((error) => {
      this.logger.error({ err: error }, 'could not re-arm scheduled messages');
      return 0;
    });
  }

  /** An application closing during the re-arm stops it (the next start re-arms anyway). */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    this.stop();
  }

  /** Schedules every undelivered, unfailed scheduled message (claimed ones too: they need recovery). */
  async rearm(): Promise<number> {
    // The read model must hold everything the log holds before it is asked what is pending (a
    // long replay at boot can outlast one projection wait: keep waiting).
    const head = await this.events.headPosition();
    for (let attempt = 0; ; attempt++) {
      if (this.stopped) return 0;
      try {
        await Promise.race([this.projections.waitFor(head), this.stopping]);
        break;
      } catch (error) {
        if (attempt >= 30) throw error;
      }
    }
    if (this.stopped) return 0;
    const pending = await this.queries.awaitingDelivery();
    for (const doc of pending) {
      if (this.stopped) return 0;
      await this.jobs.arm(doc.scheduled_message_id, doc.scheduled_delivery_timestamp);
    }
    if (pending.length > 0) this.logger.info({ count: pending.length }, 're-armed scheduled messages');
    return pending.length;
  }
}
