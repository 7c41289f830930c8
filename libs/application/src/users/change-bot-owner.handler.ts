import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeBotOwnerCommand } from './change-bot-owner.command';

@CommandHandler(ChangeBotOwnerCommand)
export class ChangeBotOwnerHandler implements ICommandHandler<ChangeBotOwnerCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, botId, ownerId }: ChangeBotOwnerCommand): Promise<void> {
    const { position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'ChangeBotOwner',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), botId, ownerId },
    });
    await this.projections.waitFor(position);
  }
}
