import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { invalidMessage, submessagesDecider, submessagesStream } from '@app/domain';
import { EditMessageFactsLoader } from '../messages/edit-message.facts-loader';
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
 * message was sent with, a submessage id, then the decider on the message's submessages stream.
 */
@Injectable()
@CommandHandler(AddSubmessageCommand)
export class AddSubmessageHandler implements ICommandHandler<AddSubmessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly access: EditMessageFactsLoader,
    private readonly submessages: SubmessageQueries,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, request }: AddSubmessageCommand): Promise<void> {
    const { editor, doc, channel } = await this.access.access(actor, request.messageId);
    if (channel?.is_archived) throw invalidMessage();
    const widget = await this.submessages.widgetOf(doc.id);
    const submessageId = await this.ids.next('submessage');
    const { position } = await this.runner.run(
      submessagesDecider,
      submessagesStream(doc.id),
      {
        type: 'AddSubmessage',
        data: {
          realmId: editor.realm_id,
          messageId: doc.id,
          submessageId,
          senderId: editor.user_id,
          msgType: request.msgType,
          content: request.content,
          now: this.clock.now().toISOString(),
          message: { senderId: doc.sender_id, widget },
        },
      },
      { actorId: editor.user_id },
    );
    await this.projections.waitFor(position);
  }
}
