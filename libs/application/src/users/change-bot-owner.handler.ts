import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { ChangeBotOwnerCommand } from './change-bot-owner.command';

@CommandHandler(ChangeBotOwnerCommand)
export class ChangeBotOwnerHandler implements ICommandHandler<ChangeBotOwnerCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, botId, ownerId }: ChangeBotOwnerCommand): Promise<void> {
    await usersHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangeBotOwner',
      data: { realmId, actorId: actor.userId, now, botId, ownerId },
    }));
  }
}
