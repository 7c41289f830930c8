import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { invalidMessage, submessagesDecider, submessagesStream } from '@app/domain';
import { MessageAccess } from '../messages/message-access';
import { TopicParticipationLoader } from '../messages/topic-participation.loader';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { AddSubmessageCommand } from './submessage.command';
import { SubmessageQueries } from './submessage.queries';

/**
 * process_submessage: access_message(is_modifying_message) on the read models ("Invalid
 * message(s)" for a message the user may not read, or in an archived channel), the widget the
 * message was sent with, what the automatic topic follow / unmute on participation needs
 * (TopicParticipationLoader), a submessage id, then the decider on the message's submessages stream.
 */
@Injectable()
@CommandHandler(AddSubmessageCommand)
export class AddSubmessageHandler implements ICommandHandler<AddSubmessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly access: MessageAccess,
    private readonly submessages: SubmessageQueries,
    private readonly participation: TopicParticipationLoader,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, request }: AddSubmessageCommand): Promise<void> {
    const accessed = await this.access.access(actor, request.messageId);
    const { user, doc, channel } = accessed;
    if (channel?.is_archived) throw invalidMessage();
    const [widget, participation] = await Promise.all([this.submessages.widgetOf(doc.id), this.participation.load(accessed)]);
    const submessageId = await this.ids.next('submessage');
    const { position } = await this.runner.run(
      submessagesDecider,
      submessagesStream(doc.id),
      {
        type: 'AddSubmessage',
        data: {
          realmId: user.realm_id,
          messageId: doc.id,
          submessageId,
          senderId: user.user_id,
          msgType: request.msgType,
          content: request.content,
          now: this.clock.now().toISOString(),
          message: { senderId: doc.sender_id, widget },
          participation,
        },
      },
      { actorId: user.user_id },
    );
    await this.projections.waitFor(position);
  }
}
