import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BOT_STORAGE_SIZE_LIMIT } from '@app/domain';
import { ownUserId } from '../shared/own-user-id';
import { DeciderCommands } from '../shared/decider-command-handler';
import { botStorageHandler } from './bot-storage.decider-handler';
import { PutBotStorageCommand, RemoveBotStorageCommand } from './bot-storage.command';

@CommandHandler(PutBotStorageCommand)
export class PutBotStorageHandler implements ICommandHandler<PutBotStorageCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, entries }: PutBotStorageCommand): Promise<void> {
    const botId = ownUserId(actor);
    await botStorageHandler(this.commands, actor, ({ now }) => ({
      type: 'PutBotStorage',
      data: { botId, now, entries, sizeLimit: BOT_STORAGE_SIZE_LIMIT },
    }));
  }
}

@CommandHandler(RemoveBotStorageCommand)
export class RemoveBotStorageHandler implements ICommandHandler<RemoveBotStorageCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, keys }: RemoveBotStorageCommand): Promise<void> {
    const botId = ownUserId(actor);
    await botStorageHandler(this.commands, actor, ({ now }) => ({
      type: 'RemoveBotStorage',
      data: { botId, now, keys },
    }));
  }
}
