import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { ChangeUserEmailCommand } from './change-user-email.command';

@CommandHandler(ChangeUserEmailCommand)
export class ChangeUserEmailHandler implements ICommandHandler<ChangeUserEmailCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, userId, newEmail }: ChangeUserEmailCommand): Promise<void> {
    await usersHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangeUserEmail',
      data: { realmId, actorId: actor.userId, now, userId, newEmail },
    }));
  }
}
