import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { scheduledMessageDecider, ScheduledMessageDoesNotExistError, scheduledMessageStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeleteScheduledMessageCommand } from './schedule-message.command';
import { ScheduledMessageJobs } from './scheduled-message-jobs';
import { ScheduledMessageQueries } from './scheduled-message.queries';

/** DELETE /scheduled_messages/{id} (delete_scheduled_message): the sender's own; its delivery job goes too. */
@CommandHandler(DeleteScheduledMessageCommand)
export class DeleteScheduledMessageHandler implements ICommandHandler<DeleteScheduledMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly queries: ScheduledMessageQueries,
    private readonly jobs: ScheduledMessageJobs,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, scheduledMessageId }: DeleteScheduledMessageCommand): Promise<void> {
    if (actor.userId === null) throw new ScheduledMessageDoesNotExistError();
    const doc = await this.queries.byId(scheduledMessageId);
    if (doc && doc.realm_id !== actor.realmId) throw new ScheduledMessageDoesNotExistError();
    const { position } = await this.runner.run(
      scheduledMessageDecider,
      scheduledMessageStream(scheduledMessageId),
      { type: 'DeleteScheduledMessage', data: { scheduledMessageId, senderId: actor.userId, now: this.clock.now().toISOString() } },
      { actorId: actor.userId },
    );
    // Disarmed before the read-your-writes wait, as arming and moving are (a job left behind by a
    // 503 would be harmless anyway: the delivery decider ignores a deleted message).
    if (doc) await this.jobs.disarm(scheduledMessageId, doc.scheduled_delivery_timestamp);
    await this.projections.waitFor(position);
  }
}
