import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeactivateUserCommand } from './deactivate-user.command';

@CommandHandler(DeactivateUserCommand)
export class DeactivateUserHandler implements ICommandHandler<DeactivateUserCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, userId, options }: DeactivateUserCommand) {
    const { newEvents, position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'DeactivateUser',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), userId, target: options.target ?? 'any' },
    });
    await this.projections.waitFor(position);
    return { deactivatedUserIds: newEvents.flatMap((e) => (e.type === 'UserDeactivated' ? [e.data.userId] : [])) };
  }
}
