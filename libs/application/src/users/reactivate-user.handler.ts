import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { ReactivateUserCommand } from './reactivate-user.command';
import { UserQueries } from './user.queries';

@CommandHandler(ReactivateUserCommand)
export class ReactivateUserHandler implements ICommandHandler<ReactivateUserCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly users: UserQueries,
  ) {}

  async execute({ context: { actor }, userId }: ReactivateUserCommand): Promise<void> {
    // A reactivated bot may not take an active human's name: their current names, from the read models.
    const activeHumanNames = await this.users.activeHumanNames(actor.realmId);
    await usersHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ReactivateUser',
      data: { realmId, actorId: actor.userId, now, userId, activeHumanNames },
    }));
  }
}
