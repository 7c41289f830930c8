import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import type { ScheduledMessageEvent } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { AllSubscription, EventStorePort, GlobalPosition, RecordedEvent } from '../ports/event-store.port';
import type { SchedulerPort } from '../ports/scheduler.port';
import { APP_CONFIG, CLOCK, EVENT_STORE, LOGGER, SCHEDULER } from '../ports/tokens';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeliverScheduledMessageCommand } from './schedule-message.command';
import { DELIVER_SCHEDULED_MESSAGE_JOB, ScheduledMessageJobs } from './scheduled-message-jobs';
import { ScheduledMessageQueries } from './scheduled-message.queries';
import { isContentKeyMissing } from '../erasure/content-key-missing-error';

/** Zulip's deliver_scheduled_messages looks for due messages every minute; so does the sweep. */
export const SWEEP_INTERVAL_MS = 60_000;
/**
 * A message is swept only once it is this late: a delivery job normally runs at its time, and the
 * sweep is for those whose job is gone (retries exhausted during an outage, an enqueue that failed).
 */
export const SWEEP_GRACE_SECONDS = 60;

/**
 * The process that runs deliveries (RUN_SCHEDULED_JOBS: the single process, or apps/worker):
 *
 * - at boot, makes the scheduler run due jobs here and re-arms every scheduled message still
 *   awaiting delivery from the read model (the embedded scheduler's timers died with the last
 *   process; BullMQ's jobs survived, but a write whose scheduler call was lost is re-armed too);
 * - from then on arms the deliveries of the scheduled messages created or moved by any process,
 *   from the log (the arming reactor): API processes beside a worker cannot reach the worker's
 *   in-process timers, and an API's own arming may have failed;
 * - every minute, sweeps for due messages still undelivered and delivers them (a job that
 *   exhausted its retries while the stores were away is delivered once they are back).
 *
 * Arming is idempotent (job ids derive from the message and its time); deliveries are too (the
 * decider claims once), so the handlers' own arming and these overlap harmlessly.
 */
@Injectable()
export class ScheduledDeliveries implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** Resolves once the re-arm has scheduled everything (tests and benchmarks wait on it). */
  rearmed: Promise<number> = Promise.resolve(0);
  private stopped = false;
  private stop!: () => void;
  private readonly stopping = new Promise<void>((resolve) => (this.stop = resolve));
  private subscription: AllSubscription | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  /** The last event the arming reactor has handled. */
  private armedUpTo: GlobalPosition = -1n;
  private armedWaiters: { position: GlobalPosition; resolve: () => void }[] = [];

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ScheduledMessageQueries,
    private readonly jobs: ScheduledMessageJobs,
    private readonly projections: ProjectionWaiter,
    @Inject(SCHEDULER) private readonly scheduler: SchedulerPort,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runScheduledJobs) {
      // An API process beside a worker: the worker delivers, re-arms and sweeps. Its own arming
      // (BullMQ) is repaired by the worker's reactor and sweep if it fails.
      return;
    }
    await this.scheduler.process(async ({ name, data }) => {
      if (name !== DELIVER_SCHEDULED_MESSAGE_JOB) return;
      await this.commands.execute(new DeliverScheduledMessageCommand(Number(data.scheduledMessageId)));
    });
    // From the head at boot on, the reactor arms what any process schedules; the re-arm covers
    // everything before it.
    const head = await this.events.headPosition();
    this.armFromLog(head);
    this.rearmed = this.rearm(head).catch((error) => {
      this.logger.error({ err: error }, 'could not re-arm scheduled messages');
      return 0;
    });
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /** An application closing during the re-arm stops it (the next start re-arms anyway). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stop();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.subscription?.close();
    this.subscription = undefined;
    for (const w of this.armedWaiters.splice(0)) w.resolve();
  }

  /** Schedules every undelivered, unfailed scheduled message (claimed ones too: they need recovery). */
  async rearm(head?: GlobalPosition): Promise<number> {
    // The read model must hold everything the log holds before it is asked what is pending (a
    // long replay at boot can outlast one projection wait: keep waiting).
    const upTo = head ?? (await this.events.headPosition());
    for (let attempt = 0; ; attempt++) {
      if (this.stopped) return 0;
      try {
        await Promise.race([this.projections.waitFor(upTo), this.stopping]);
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

  /**
   * Delivers every scheduled message due for more than SWEEP_GRACE_SECONDS and still awaiting
   * delivery; returns how many it tried. Runs every minute; one sweep at a time.
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    if (this.stopped) return 0;
    const cutoff = Math.floor(this.clock.now().getTime() / 1000) - SWEEP_GRACE_SECONDS;
    let due;
    try {
      due = (await this.queries.awaitingDelivery()).filter((doc) => doc.scheduled_delivery_timestamp <= cutoff);
    } catch (error) {
      this.logger.error({ err: error }, 'scheduled-message sweep could not read the pending messages; next sweep in a minute');
      return 0;
    }
    for (const doc of due) {
      if (this.stopped) break;
      try {
        const outcome = await this.commands.execute(new DeliverScheduledMessageCommand(doc.scheduled_message_id));
        this.logger.warn({ scheduledMessageId: doc.scheduled_message_id, deliverAt: doc.scheduled_delivery_timestamp, outcome }, 'sweep delivered an overdue scheduled message');
      } catch (error) {
        this.logger.error({ err: error, scheduledMessageId: doc.scheduled_message_id }, 'sweep could not deliver an overdue scheduled message; next sweep in a minute');
      }
    }
    return due.length;
  }

  /** Resolves once the arming reactor has handled the log up to `position` (tests). */
  armedThrough(position: GlobalPosition | undefined): Promise<void> {
    if (position === undefined || position <= this.armedUpTo || !this.subscription) return Promise.resolve();
    return new Promise((resolve) => this.armedWaiters.push({ position, resolve }));
  }

  /** The arming reactor: a live subscription to the log, from `after`, arming created and moved messages. */
  private armFromLog(after: GlobalPosition | undefined): void {
    if (after !== undefined) this.armedUpTo = after;
    const subscription = this.events.subscribeToAll({ after, batchSize: 500 }, (batch) => this.armBatch(batch));
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopped || this.subscription !== subscription) return;
        // A sealed event without its key reads the same on every retry: stop instead of spinning every second.
        if (isContentKeyMissing(error)) return void this.logger.error({ err: error }, `scheduled-message arming stopped: ${error.message}`);
        this.logger.error({ err: error }, 'scheduled-message arming stopped on an error; resubscribing');
        setTimeout(() => {
          if (!this.stopped) this.armFromLog(this.armedUpTo < 0n ? undefined : this.armedUpTo);
        }, 1000).unref();
      },
    );
  }

  private async armBatch(batch: RecordedEvent[]): Promise<void> {
    for (const recorded of batch) {
      const event = recorded as unknown as ScheduledMessageEvent;
      if (event.type === 'ScheduledMessageCreated') {
        await this.jobs.arm(event.data.scheduledMessageId, event.data.deliverAt);
      } else if (event.type === 'ScheduledMessageEdited') {
        await this.jobs.move(event.data.scheduledMessageId, event.data.old.deliverAt, event.data.new.deliverAt);
      } else if (event.type === 'ScheduledMessageDeleted') {
        await this.jobs.disarmAny(event.data.scheduledMessageId);
      }
      this.armedUpTo = recorded.position;
    }
    const ready = this.armedWaiters.filter((w) => w.position <= this.armedUpTo);
    if (ready.length === 0) return;
    this.armedWaiters = this.armedWaiters.filter((w) => w.position > this.armedUpTo);
    for (const w of ready) w.resolve();
  }
}
