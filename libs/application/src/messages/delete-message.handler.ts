import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { messageDecider, messageStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeleteMessageCommand } from './edit-message.command';
import { EditMessageFactsLoader } from './edit-message.facts-loader';
import { MessageAccess } from './message-access';

/** DELETE /messages/{id}: access, the delete permissions, `MessageDeleted` on `message-<id>`. */
@CommandHandler(DeleteMessageCommand)
export class DeleteMessageHandler implements ICommandHandler<DeleteMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly access: MessageAccess,
    private readonly facts: EditMessageFactsLoader,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context, messageId }: DeleteMessageCommand): Promise<Record<string, never>> {
    const accessed = await this.access.access(context.actor, messageId);
    const data = await this.facts.forDelete(accessed, this.clock.now().toISOString());
    const { position } = await this.runner.run(messageDecider, messageStream(messageId), { type: 'DeleteMessage', data }, { actorId: accessed.user.user_id });
    await this.projections.waitFor(position);
    return {};
  }
}
