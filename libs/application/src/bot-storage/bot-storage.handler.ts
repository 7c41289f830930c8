import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BOT_STORAGE_SIZE_LIMIT, botStorageDecider, botStorageStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ownUserId } from '../shared/own-user-id';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { PutBotStorageCommand, RemoveBotStorageCommand } from './bot-storage.command';

@CommandHandler(PutBotStorageCommand)
export class PutBotStorageHandler implements ICommandHandler<PutBotStorageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, entries }: PutBotStorageCommand): Promise<void> {
    const botId = ownUserId(actor);
    const { position } = await this.runner.run(botStorageDecider, botStorageStream(botId), {
      type: 'PutBotStorage',
      data: { botId, now: this.clock.now().toISOString(), entries, sizeLimit: BOT_STORAGE_SIZE_LIMIT },
    });
    await this.projections.waitFor(position);
  }
}

@CommandHandler(RemoveBotStorageCommand)
export class RemoveBotStorageHandler implements ICommandHandler<RemoveBotStorageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, keys }: RemoveBotStorageCommand): Promise<void> {
    const botId = ownUserId(actor);
    const { position } = await this.runner.run(botStorageDecider, botStorageStream(botId), {
      type: 'RemoveBotStorage',
      data: { botId, now: this.clock.now().toISOString(), keys },
    });
    await this.projections.waitFor(position);
  }
}
