import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  checkDeliveryTimeInFuture,
  DeliveryTimeNotInFutureError,
  NoSuchUserError,
  normalizeTopic,
  ScheduledMessageAlreadySentError,
  type ScheduledMessageBody,
  scheduledMessageDecider,
  ScheduledMessageDoesNotExistError,
  ScheduledMessageEditError,
  type ScheduledMessageEdited,
  scheduledMessageStream,
  truncateTopic,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user.queries';
import { EditScheduledMessageCommand } from './schedule-message.command';
import { targetFromRequest } from './schedule-message.handler';
import { ScheduledMessageCheck, type ScheduledTarget, storedType, targetOf } from './scheduled-message-check';
import { ScheduledMessageJobs } from './scheduled-message-jobs';
import { ScheduledMessageQueries } from './scheduled-message.queries';

/**
 * PATCH /scheduled_messages/{id} (update_scheduled_message_backend + edit_scheduled_message), in
 * Zulip's order: the parameter checks, the time, access (404), already sent, a failed message
 * without a new time, then the merged message checked again as a send when its recipient or
 * content changes. The delivery job moves with the time.
 */
@CommandHandler(EditScheduledMessageCommand)
export class EditScheduledMessageHandler implements ICommandHandler<EditScheduledMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    private readonly queries: ScheduledMessageQueries,
    private readonly check: ScheduledMessageCheck,
    private readonly jobs: ScheduledMessageJobs,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, scheduledMessageId, request }: EditScheduledMessageCommand): Promise<void> {
    const { type, to, topic, content, scheduledDeliveryTimestamp: deliverAt, client } = request;
    if (type === undefined && to === undefined && topic === undefined && content === undefined && deliverAt === undefined) {
      throw ScheduledMessageEditError.nothingToChange();
    }
    const newType = type === undefined ? undefined : storedType(type);
    if (newType !== undefined && to === undefined) throw ScheduledMessageEditError.recipientRequired();
    if (newType === 'stream' && topic === undefined) throw ScheduledMessageEditError.topicRequired();
    const now = this.clock.now().toISOString();
    if (deliverAt !== undefined) checkDeliveryTimeInFuture(deliverAt, now);

    const doc = await this.queries.byId(scheduledMessageId);
    if (!doc || doc.sender_id !== actor.userId || doc.realm_id !== actor.realmId) throw new ScheduledMessageDoesNotExistError();
    if (doc.delivered || doc.claimed_message_id !== null) throw new ScheduledMessageAlreadySentError();
    // A failed message needs a new time, before anything else is checked (DeliveryTimeNotInFutureError).
    if (doc.failed && deliverAt === undefined) throw new DeliveryTimeNotInFutureError();
    const sender = await this.users.byId(actor.realmId, doc.sender_id);
    if (!sender) throw new NoSuchUserError();

    const existing: ScheduledTarget = targetOf(
      doc.type === 'stream' ? { type: 'stream', streamId: doc.to as number, topic: doc.topic } : { type: 'private', userIds: doc.to as number[] },
    );
    const old: ScheduledMessageBody = {
      recipient: existing.type === 'stream' ? { type: 'stream', streamId: existing.streamId, topic: existing.topic ?? '' } : existing,
      content: doc.content,
      renderedContent: doc.rendered_content,
      deliverAt: doc.scheduled_delivery_timestamp,
      client: doc.client,
    };
    let body: ScheduledMessageBody = { ...old, deliverAt: deliverAt ?? old.deliverAt, client };
    if (newType !== undefined || to !== undefined || content !== undefined) {
      const targetType = newType ?? doc.type;
      const target: ScheduledTarget =
        to !== undefined
          ? targetFromRequest(targetType, to, topic ?? (existing.type === 'stream' ? existing.topic : ''))
          : existing.type === 'stream'
            ? { ...existing, topic: topic ?? existing.topic }
            : existing;
      const checked = await this.check.check(sender, target, content ?? doc.content, client, now);
      body = { ...body, recipient: checked.recipient, content: checked.content, renderedContent: checked.renderedContent };
    } else if (topic !== undefined && old.recipient.type === 'stream') {
      // Only the topic of a channel message (a topic sent for a direct message is ignored).
      body = { ...body, recipient: { ...old.recipient, topic: truncateTopic(normalizeTopic(topic)) } };
    }

    const { newEvents, position } = await this.runner.run(
      scheduledMessageDecider,
      scheduledMessageStream(scheduledMessageId),
      { type: 'EditScheduledMessage', data: { scheduledMessageId, senderId: doc.sender_id, body, deliverAtGiven: deliverAt !== undefined, now } },
      { actorId: actor.userId },
    );
    // Moved before the read-your-writes wait: a wait that times out (503) leaves the job moved.
    const edited = newEvents.find((e): e is ScheduledMessageEdited => e.type === 'ScheduledMessageEdited');
    if (edited) await this.jobs.move(scheduledMessageId, edited.data.old.deliverAt, edited.data.new.deliverAt);
    await this.projections.waitFor(position);
  }
}
