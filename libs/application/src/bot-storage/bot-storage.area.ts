import { BOT_STORAGE_EVENT_TYPES, botStorageDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import type { Provider } from '@nestjs/common';
import { BotStorageQueries } from './bot-storage.queries';
import { PutBotStorageHandler, RemoveBotStorageHandler } from './bot-storage.handler';

const handlers: Provider[] = [PutBotStorageHandler, RemoveBotStorageHandler];
const queries: Provider[] = [BotStorageQueries];

/** A bot's key-value storage (no client events, no /register section). */
export const botStorageArea = defineArea({
  name: 'bot-storage',
  providers: [...handlers, ...queries],
  exports: queries,
  deciders: [botStorageDecider],
  events: BOT_STORAGE_EVENT_TYPES,
});
