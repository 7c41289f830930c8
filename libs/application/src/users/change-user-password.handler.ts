import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { AppConfig } from '@app/config';
import type { ClockPort } from '../ports/clock.port';
import { APP_CONFIG, CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeUserPasswordCommand } from './change-user-password.command';
import { hashPassword } from './passwords';

@CommandHandler(ChangeUserPasswordCommand)
export class ChangeUserPasswordHandler implements ICommandHandler<ChangeUserPasswordCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ context: { actor }, userId, password }: ChangeUserPasswordCommand): Promise<void> {
    const passwordHash = await hashPassword(password, this.config.passwordHashCost);
    const { position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'ChangePassword',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), userId, passwordHash },
    });
    await this.projections.waitFor(position);
  }
}
