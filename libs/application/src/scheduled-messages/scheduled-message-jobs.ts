import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import type { SchedulerPort } from '../ports/scheduler.port';
import { APP_CONFIG, LOGGER, SCHEDULER } from '../ports/tokens';

export const DELIVER_SCHEDULED_MESSAGE_JOB = 'deliver-scheduled-message';

/**
 * The job id of one delivery: derived from the scheduled message and its time, so scheduling
 * it twice is one job (BullMQ ignores an add with an existing id). Moving a message to a new
 * time removes the old job and adds the new one, rather than BullMQ's changeDelay: a job that a
 * worker has already picked cannot be changed, and would then be lost when it completes. A job
 * left behind (a crash between the append and the scheduler call) is harmless: the delivery
 * decider ignores a job whose message is not due, deleted or already claimed.
 */
export const deliveryJobId = (scheduledMessageId: number, deliverAt: number) => `scheduled_message-${scheduledMessageId}-at-${deliverAt}`;

/**
 * Keeps the scheduler's jobs in step with the scheduled messages.
 *
 * An API process that leaves the deliveries to a worker (RUN_SCHEDULED_JOBS=false) with the
 * embedded scheduler arms nothing itself: in-process timers here would never run. The worker's
 * arming reactor (ScheduledDeliveries) arms them from the log instead.
 */
@Injectable()
export class ScheduledMessageJobs {
  constructor(
    @Inject(SCHEDULER) private readonly scheduler: SchedulerPort,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get armsHere(): boolean {
    return this.config.runScheduledJobs || this.config.schedulerDriver !== 'embedded';
  }

  /** Arms the delivery at `deliverAt` (now, for one whose time has passed). */
  async arm(scheduledMessageId: number, deliverAt: number): Promise<void> {
    if (!this.armsHere) return;
    await this.guard('arm', scheduledMessageId, () =>
      this.scheduler.schedule({
        id: deliveryJobId(scheduledMessageId, deliverAt),
        name: DELIVER_SCHEDULED_MESSAGE_JOB,
        data: { scheduledMessageId },
        runAt: new Date(deliverAt * 1000),
      }),
    );
  }

  async disarm(scheduledMessageId: number, deliverAt: number): Promise<void> {
    if (!this.armsHere) return;
    await this.guard('disarm', scheduledMessageId, () => this.scheduler.cancel(deliveryJobId(scheduledMessageId, deliverAt)));
  }

  /**
   * Drops whatever delivery of the message is pending here, whatever its time (the arming reactor,
   * on a deletion: the event does not say the time). Only the in-process timers of the process
   * running the deliveries need it: an API process beside a worker cannot reach them, while with
   * BullMQ the deleting process removed the job itself. A job left over would be harmless anyway
   * (the delivery decider ignores a deleted message).
   */
  async disarmAny(scheduledMessageId: number): Promise<void> {
    if (!this.config.runScheduledJobs || this.config.schedulerDriver !== 'embedded') return;
    const prefix = `scheduled_message-${scheduledMessageId}-at-`;
    await this.guard('disarm', scheduledMessageId, async () => {
      for (const id of await this.scheduler.pendingJobIds()) if (id.startsWith(prefix)) await this.scheduler.cancel(id);
    });
  }

  async move(scheduledMessageId: number, from: number, to: number): Promise<void> {
    if (from !== to) await this.disarm(scheduledMessageId, from);
    await this.arm(scheduledMessageId, to);
  }

  /**
   * The write was appended already; a scheduler that is briefly unreachable must not turn it into
   * an error. The failure is logged; the process running the deliveries arms the message from the
   * log as well (ScheduledDeliveries), re-arms everything at its next start, and its sweep
   * delivers whatever is overdue.
   */
  private async guard(action: 'arm' | 'disarm', scheduledMessageId: number, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.logger.error({ err: error, scheduledMessageId, action }, `could not ${action} a scheduled message's delivery job (scheduler unreachable); the worker's reactor, re-arm and sweep repair it`);
    }
  }
}
