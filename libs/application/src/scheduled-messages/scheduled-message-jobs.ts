import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { SchedulerPort } from '../ports/scheduler.port';
import { LOGGER, SCHEDULER } from '../ports/tokens';

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

/** Keeps the scheduler's jobs in step with the scheduled messages. */
@Injectable()
export class ScheduledMessageJobs {
  constructor(
    @Inject(SCHEDULER) private readonly scheduler: SchedulerPort,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Arms the delivery at `deliverAt` (now, for one whose time has passed). */
  async arm(scheduledMessageId: number, deliverAt: number): Promise<void> {
    await this.guard(() =>
      this.scheduler.schedule({
        id: deliveryJobId(scheduledMessageId, deliverAt),
        name: DELIVER_SCHEDULED_MESSAGE_JOB,
        data: { scheduledMessageId },
        runAt: new Date(deliverAt * 1000),
      }),
    );
  }

  async disarm(scheduledMessageId: number, deliverAt: number): Promise<void> {
    await this.guard(() => this.scheduler.cancel(deliveryJobId(scheduledMessageId, deliverAt)));
  }

  async move(scheduledMessageId: number, from: number, to: number): Promise<void> {
    if (from !== to) await this.disarm(scheduledMessageId, from);
    await this.arm(scheduledMessageId, to);
  }

  /**
   * The write was appended already; a scheduler that is briefly unreachable must not turn it into
   * an error. The boot re-arm schedules every message awaiting delivery again.
   */
  private async guard(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.logger.error({ err: error }, 'scheduler unreachable; the delivery will be re-armed at the next start');
    }
  }
}
