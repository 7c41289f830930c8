import { Controller, Delete, Get, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BotStorageQueries, PutBotStorageCommand, RemoveBotStorageCommand } from '@app/application';
import { BotsOnly, CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { BotStorageKeysDto, PutBotStorageDto } from './bot-storage.dto';

/** ≈ zerver/views/storage.py. Bots only since feature level 494. */
@Controller('api/v1/bot_storage')
@BotsOnly()
export class BotStorageController {
  constructor(
    private readonly commands: CommandBus,
    private readonly storage: BotStorageQueries,
  ) {}

  @Put()
  @Summary('Store entries in the calling bot\'s storage.')
  async put(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: PutBotStorageDto) {
    const entries = Object.entries(params.storage).map(([key, value]) => ({ key, value }));
    await this.commands.execute(new PutBotStorageCommand({ actor }, entries));
    return {};
  }

  @Get()
  @Summary('Read the calling bot\'s storage: the named keys, or everything.')
  async get(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: BotStorageKeysDto) {
    return { storage: await this.storage.storage(actor.userId!, params.keys) };
  }

  @Delete()
  @Summary('Remove entries of the calling bot\'s storage: the named keys, or everything.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: BotStorageKeysDto) {
    await this.commands.execute(new RemoveBotStorageCommand({ actor }, params.keys));
    return {};
  }
}
