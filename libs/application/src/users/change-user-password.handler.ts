import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { APP_CONFIG } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { ChangeUserPasswordCommand } from './change-user-password.command';
import { hashPassword } from './passwords';

@CommandHandler(ChangeUserPasswordCommand)
export class ChangeUserPasswordHandler implements ICommandHandler<ChangeUserPasswordCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ context: { actor }, userId, password }: ChangeUserPasswordCommand): Promise<void> {
    const passwordHash = await hashPassword(password, this.config.passwordHashCost);
    await usersHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangePassword',
      data: { realmId, actorId: actor.userId, now, userId, passwordHash },
    }));
  }
}
