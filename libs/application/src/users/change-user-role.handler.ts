import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { ChangeUserRoleCommand } from './change-user-role.command';

@CommandHandler(ChangeUserRoleCommand)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRoleCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, userId, role }: ChangeUserRoleCommand): Promise<void> {
    await usersHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangeUserRole',
      data: { realmId, actorId: actor.userId, now, userId, role },
    }));
  }
}
