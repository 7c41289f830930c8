import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { DeactivateUserCommand } from './deactivate-user.command';

@CommandHandler(DeactivateUserCommand)
export class DeactivateUserHandler implements ICommandHandler<DeactivateUserCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, userId, options }: DeactivateUserCommand) {
    const { newEvents } = await usersHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'DeactivateUser',
      data: { realmId, actorId: actor.userId, now, userId, target: options.target ?? 'any' },
    }));
    return { deactivatedUserIds: newEvents.flatMap((e) => (e.type === 'UserDeactivated' ? [e.data.userId] : [])) };
  }
}
