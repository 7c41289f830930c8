import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ReactivateUserCommand } from './reactivate-user.command';

@CommandHandler(ReactivateUserCommand)
export class ReactivateUserHandler implements ICommandHandler<ReactivateUserCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, userId }: ReactivateUserCommand): Promise<void> {
    const { position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'ReactivateUser',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), userId },
    });
    await this.projections.waitFor(position);
  }
}
