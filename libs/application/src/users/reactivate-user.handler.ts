import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ReactivateUserCommand } from './reactivate-user.command';
import { UserQueries } from './user.queries';

@CommandHandler(ReactivateUserCommand)
export class ReactivateUserHandler implements ICommandHandler<ReactivateUserCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, userId }: ReactivateUserCommand): Promise<void> {
    const { position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'ReactivateUser',
      // A reactivated bot may not take an active human's name: their current names, from the read models.
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), userId, activeHumanNames: await this.users.activeHumanNames(actor.realmId) },
    });
    await this.projections.waitFor(position);
  }
}
