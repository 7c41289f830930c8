import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  checkDeliveryTimeInFuture,
  DomainError,
  NoSuchUserError,
  SCHEDULED_MESSAGE_SEQUENCE,
  scheduledMessageDecider,
  scheduledMessageStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user.queries';
import { defaultReadBySender } from '../messages/send-message.command';
import { ScheduleMessageCommand, type ScheduledTo } from './schedule-message.command';
import { ScheduledMessageCheck, type ScheduledTarget, storedType } from './scheduled-message-check';
import { ScheduledMessageJobs } from './scheduled-message-jobs';

/** recipient_parsing.py extract_stream_id: a channel message goes to one channel id, never a list. */
export function streamIdOf(to: ScheduledTo): number {
  if (typeof to !== 'number') throw new DomainError('Invalid data type for channel ID');
  return to;
}

/** recipient_parsing.py extract_direct_message_recipient_ids: a list of user ids (duplicates dropped), never one id. */
export function userIdsOf(to: ScheduledTo): number[] {
  if (!Array.isArray(to)) throw new DomainError('Invalid data type for recipients');
  return [...new Set(to)];
}

export const targetFromRequest = (type: 'stream' | 'private', to: ScheduledTo, topic: string | undefined): ScheduledTarget =>
  type === 'stream' ? { type: 'stream', streamId: streamIdOf(to), topic } : { type: 'private', userIds: userIdsOf(to) };

/**
 * POST /scheduled_messages (check_schedule_message): the time must be in the future, then the
 * message is checked exactly as a send would be, then it takes an id from the
 * `scheduled_message` sequence (never a message id: it gets one when it is sent) and its delivery
 * is armed in the scheduler.
 */
@CommandHandler(ScheduleMessageCommand)
export class ScheduleMessageHandler implements ICommandHandler<ScheduleMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    private readonly check: ScheduledMessageCheck,
    private readonly jobs: ScheduledMessageJobs,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context: { actor }, request }: ScheduleMessageCommand): Promise<{ scheduled_message_id: number }> {
    const now = this.clock.now().toISOString();
    checkDeliveryTimeInFuture(request.scheduledDeliveryTimestamp, now);
    const sender = actor.userId === null ? null : await this.users.byId(actor.realmId, actor.userId);
    if (!sender) throw new NoSuchUserError();
    const target = targetFromRequest(storedType(request.type), request.to, request.topic);
    const checked = await this.check.check(sender, target, request.content, request.client, now);
    const toSelfOnly = checked.recipient.type === 'private' && checked.recipient.userIds.length === 1 && checked.recipient.userIds[0] === sender.user_id;
    // Legacy default: read for its sender when scheduled from a non-API client, unless sent to oneself only.
    const readBySender = request.readBySender ?? (defaultReadBySender(request.client) && !toSelfOnly);
    const scheduledMessageId = await this.ids.next(SCHEDULED_MESSAGE_SEQUENCE);
    const { position } = await this.runner.run(
      scheduledMessageDecider,
      scheduledMessageStream(scheduledMessageId),
      {
        type: 'ScheduleMessage',
        data: {
          scheduledMessageId,
          realmId: actor.realmId,
          senderId: sender.user_id,
          recipient: checked.recipient,
          content: checked.content,
          renderedContent: checked.renderedContent,
          deliverAt: request.scheduledDeliveryTimestamp,
          client: request.client,
          readBySender,
          now,
        },
      },
      { actorId: actor.userId },
    );
    // Armed before the read-your-writes wait: a wait that times out (503) leaves the message armed.
    await this.jobs.arm(scheduledMessageId, request.scheduledDeliveryTimestamp);
    await this.projections.waitFor(position);
    return { scheduled_message_id: scheduledMessageId };
  }
}
