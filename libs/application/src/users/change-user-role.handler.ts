import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeUserRoleCommand } from './change-user-role.command';

@CommandHandler(ChangeUserRoleCommand)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRoleCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, userId, role }: ChangeUserRoleCommand): Promise<void> {
    const { position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'ChangeUserRole',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), userId, role },
    });
    await this.projections.waitFor(position);
  }
}
