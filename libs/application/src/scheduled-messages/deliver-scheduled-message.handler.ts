import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import {
  type CheckedMessage,
  DELIVERY_FAILURES,
  DomainError,
  failedScheduledMessageNotice,
  isTooLateToDeliver,
  MessageAlreadySentError,
  messageStream,
  type ScheduledMessageCommand,
  scheduledMessageDecider,
  type ScheduledMessageEvent,
  type ScheduledMessageState,
  scheduledMessageStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { EventStorePort } from '../ports/event-store.port';
import { CLOCK, EVENT_STORE, LOGGER } from '../ports/tokens';
import { METRICS, type MetricsPort } from '../ports/metrics.port';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { RealmQueries } from '../realms/realm.queries';
import { UserQueries } from '../users/user.queries';
import { DeliverScheduledMessageCommand, type DeliveryOutcome } from './schedule-message.command';
import { MessageSender } from '../messages/message-sender';
import { sendRequestOf, targetOf } from './scheduled-message-check';
import { NotificationBot } from '../messages/notification-bot';

/** The stream's state, with its id and read_by_sender as scheduled. */
type Loaded = ScheduledMessageState & { id: number; readBySender: boolean };
type Failure = { failureMessage: string; notifySender: boolean };
type Checked = { ok: true; message: CheckedMessage } | { ok: false; failure: Failure };

/**
 * Delivers one scheduled message (try_deliver_one_scheduled_message + send_scheduled_message).
 *
 * Exactly once across two streams (see scheduledMessageDecider): claim on
 * `scheduled_message-<id>` with a freshly allocated message id → append `MessageSent` to
 * `message-<claimed id>` (the message decider refuses a second one, so a repeat is harmless) →
 * confirm. Every step is safe to repeat, so any worker may run the job any number of times, in
 * parallel or after a crash at any point, and at most one message exists for the scheduled
 * message; a claimed but unconfirmed message is picked up again by the next run (a retried job,
 * or the boot re-arm, which re-arms claimed messages too).
 *
 * The send is checked at delivery time by the MessageSender, which every send goes through (as
 * Zulip calls check_message again), and appended by it under the claimed id: a refusal marks the
 * scheduled message failed with the refusal's message, and Notification Bot tells the sender (not
 * when the sender or the organization was deactivated, as in Zulip).
 */
@CommandHandler(DeliverScheduledMessageCommand)
export class DeliverScheduledMessageHandler implements ICommandHandler<DeliverScheduledMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly sender: MessageSender,
    private readonly notificationBot: NotificationBot,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) private readonly metrics: MetricsPort,
  ) {}

  async execute({ scheduledMessageId }: DeliverScheduledMessageCommand): Promise<DeliveryOutcome> {
    const stream = scheduledMessageStream(scheduledMessageId);
    const now = this.clock.now().toISOString();
    let state = await this.state(scheduledMessageId);
    let checked: Checked | undefined;

    if (state.claimedMessageId === null) {
      if (state.status !== 'scheduled' || state.failed || state.body === null || state.body.deliverAt * 1000 > Date.parse(now)) return 'skipped';
      checked = await this.checkSend(state, now);
      if (!checked.ok) return this.fail(state, checked.failure, now);
      // Step 1: the claim fixes the message id. A racing worker's claim loses (no events) and
      // continues with the winner's id below.
      const messageId = await this.sender.nextMessageId();
      const { newEvents } = await this.runner.run(scheduledMessageDecider, stream, this.command('ClaimDelivery', scheduledMessageId, now, { messageId }));
      if (newEvents.length > 0) {
        state = { ...state, claimedMessageId: messageId };
      } else {
        state = await this.state(scheduledMessageId);
        checked = undefined;
        if (state.claimedMessageId === null) return 'skipped';
      }
    }
    if (state.deliveredMessageId !== null) return 'skipped';
    const messageId = state.claimedMessageId!;

    // Step 2: the message itself, unless a previous run already appended it (only a run that did
    // not just make the claim itself needs to look: a fresh claim's message cannot exist yet but
    // for a racing run's, which the message decider refuses below).
    const exists = checked === undefined && (await this.events.readStream(messageStream(messageId), { maxCount: 1 })).events.length > 0;
    if (!exists) {
      // A claimed message that a run marked failed stays unsent (its sender was told so).
      if (state.failed) return 'skipped';
      checked ??= await this.checkSend(state, now, { ignoreLateness: true });
      if (!checked.ok) return this.fail(state, checked.failure, now);
      try {
        // (No wait here: the confirmation's wait below covers this append too.)
        await this.sender.append(checked.message, messageId, { metadata: { scheduledMessageId } });
      } catch (error) {
        // Appended meanwhile by a racing run: the message exists, which is all step 3 needs.
        if (!(error instanceof MessageAlreadySentError)) throw error;
      }
    }

    // Step 3.
    const { newEvents, position } = await this.runner.run(scheduledMessageDecider, stream, this.command('ConfirmDelivery', scheduledMessageId, now, { messageId }));
    await this.projections.waitFor(position);
    if (newEvents.length > 0 && state.body) this.metrics.scheduledDelivery(Math.max(0, this.clock.now().getTime() / 1000 - state.body.deliverAt));
    // 'delivered' for the one run that recorded the delivery; racing runs that helped are 'skipped'.
    return newEvents.length > 0 ? 'delivered' : 'skipped';
  }

  private command<T extends ScheduledMessageCommand['type']>(type: T, scheduledMessageId: number, now: string, rest: object): ScheduledMessageCommand {
    return { type, data: { scheduledMessageId, now, ...rest } } as ScheduledMessageCommand;
  }

  private async state(scheduledMessageId: number): Promise<Loaded> {
    const { events } = await this.events.readStream(scheduledMessageStream(scheduledMessageId));
    const state = events.reduce(
      (s, e) => scheduledMessageDecider.evolve(s, { type: e.type, data: e.data } as ScheduledMessageEvent),
      scheduledMessageDecider.initialState(),
    );
    const created = events[0]?.type === 'ScheduledMessageCreated' ? (events[0].data as { readBySender: boolean }) : undefined;
    return { ...state, id: scheduledMessageId, readBySender: created?.readBySender ?? false };
  }

  /** send_scheduled_message's checks, then check_message with the facts of now. */
  private async checkSend(state: Loaded, now: string, options: { ignoreLateness?: boolean } = {}): Promise<Checked> {
    const body = state.body!;
    const realm = await this.realms.byId(state.realmId);
    if (!realm || realm.deactivated) return { ok: false, failure: { failureMessage: DELIVERY_FAILURES.realmDeactivated, notifySender: false } };
    const sender = await this.users.byId(state.realmId, state.senderId);
    if (!sender || !sender.is_active) return { ok: false, failure: { failureMessage: DELIVERY_FAILURES.senderDeactivated, notifySender: false } };
    if (!options.ignoreLateness && isTooLateToDeliver(body.deliverAt, now)) return { ok: false, failure: { failureMessage: DELIVERY_FAILURES.tooLate, notifySender: true } };
    try {
      const request = { ...sendRequestOf(targetOf(body.recipient), body.content, body.client), readBySender: state.readBySender };
      return { ok: true, message: await this.sender.check(sender, request, now) };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, failure: { failureMessage: error.message, notifySender: true } };
      throw error;
    }
  }

  private async fail(state: Loaded, failure: Failure, now: string): Promise<DeliveryOutcome> {
    const scheduledMessageId = state.id;
    const { newEvents, position } = await this.runner.run(
      scheduledMessageDecider,
      scheduledMessageStream(scheduledMessageId),
      this.command('FailDelivery', scheduledMessageId, now, failure),
    );
    await this.projections.waitFor(position);
    if (newEvents.length === 0) return 'skipped';
    this.logger.info({ scheduledMessageId, failureMessage: failure.failureMessage }, 'scheduled message failed');
    if (failure.notifySender) {
      try {
        await this.notificationBot.sendDirect(state.realmId, state.senderId, failedScheduledMessageNotice(state.body!.deliverAt, failure.failureMessage));
      } catch (error) {
        this.logger.error({ err: error, scheduledMessageId }, 'could not tell the sender that a scheduled message failed');
      }
    }
    return 'failed';
  }
}
