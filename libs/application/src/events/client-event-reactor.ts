import type { AllSubscription, EventStorePort, GlobalPosition, RecordedEvent } from '../ports/event-store.port';
import type { ReadStorePort } from '../ports/read-store.port';
import type { ProjectionWaiter } from '../shared/projection-waiter';
import type { ClientEventMapperContext, ClientEventMappers } from './client-event-registry';
import type { EventQueues } from './event-queues';
import { isContentKeyMissing } from '../erasure/content-key-missing-error';

export type ReactorLogger = { error(obj: object, msg: string): void; info?(obj: object, msg: string): void };

/**
 * Reads the global log live (from its head at boot: queues do not outlive the process) and turns
 * each domain event into client events for the queues of this process, in log order.
 *
 * Before mapping a batch it waits until the read models reflect it, so mappers may read them
 * (a subscription's channel, a message as formatted for the API). `position` is the last event
 * fully delivered; RegisterCoordinator relies on it.
 */
export class ClientEventReactor {
  private subscription: AllSubscription | undefined;
  private positionValue: GlobalPosition = -1n;
  private stopped = false;
  private readonly context: ClientEventMapperContext;

  constructor(
    private readonly events: EventStorePort,
    private readonly readStore: ReadStorePort,
    private readonly waiter: ProjectionWaiter,
    private readonly mappers: ClientEventMappers,
    private readonly queues: EventQueues,
    private readonly logger: ReactorLogger,
    /** The organization's active users (UserQueries.activeIds): the users area sits above events/. */
    activeUserIds: (realmId: number) => Promise<number[]>,
  ) {
    this.context = {
      readStore,
      events,
      activeUserIds,
      hasQueues: (userId) => queues.hasQueues(userId),
      usersWithQueues: () => queues.usersWithQueues(),
    };
  }

  get position(): GlobalPosition {
    return this.positionValue;
  }

  async start(): Promise<void> {
    this.stopped = false;
    const head = await this.events.headPosition();
    if (head !== undefined) this.positionValue = head;
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close();
    this.subscription = undefined;
  }

  private subscribe(): void {
    const after = this.positionValue < 0n ? undefined : this.positionValue;
    const subscription = this.events.subscribeToAll({ after, batchSize: 500 }, (batch) => this.apply(batch));
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopped || this.subscription !== subscription) return;
        // A sealed event without its key reads the same on every retry: stop (the boot check and the projector make the process exit).
        if (isContentKeyMissing(error)) return void this.logger.error({ err: error }, `client event reactor stopped: ${error.message}`);
        this.logger.error({ err: error }, 'client event reactor stopped on an error; resubscribing');
        this.resubscribeLater();
      },
    );
  }

  /** From the last delivered position, however long the outage lasts. */
  private resubscribeLater(): void {
    setTimeout(() => {
      if (this.stopped) return;
      try {
        this.subscribe();
      } catch (error) {
        this.logger.error({ err: error }, 'client event reactor could not resubscribe; retrying');
        this.resubscribeLater();
      }
    }, 1000).unref?.();
  }

  private async apply(batch: RecordedEvent[]): Promise<void> {
    if (batch.length === 0) return;
    const relevant = batch.filter((e) => this.mappers.has(e.type));
    if (relevant.length > 0) {
      try {
        await this.waiter.waitFor(relevant[relevant.length - 1].position);
      } catch (error) {
        // Deliver anyway: a mapper reading a model that lags is better than a client missing the event.
        this.logger.error({ err: error }, 'client event reactor: read models lag behind the log');
      }
    }
    for (const event of batch) {
      // With no queue in this process nobody can receive the event: skip mapping it (a mapper of an
      // organization-wide event reads every active user; 10,000 users created in one append cost
      // 10,000 such reads). The check and the position update run in one synchronous step, so a
      // queue registered afterwards starts after this event, as it would have anyway.
      if (this.mappers.has(event.type) && this.queues.size > 0) await this.deliver(event);
      this.positionValue = event.position;
    }
  }

  private async deliver(event: RecordedEvent): Promise<void> {
    try {
      for (const delivery of await this.mappers.map(event, this.context)) {
        const { perUser, perQueue } = delivery;
        for (const userId of delivery.userIds) {
          if (!this.queues.hasQueues(userId)) continue;
          const shaped = perUser ? perUser(userId) : delivery.event;
          this.queues.deliver([userId], shaped, event.position, perQueue ? (queue) => perQueue(queue, shaped) : undefined);
        }
      }
    } catch (error) {
      this.logger.error({ err: error, type: event.type, position: event.position.toString() }, 'client event mapper failed');
    }
  }
}
