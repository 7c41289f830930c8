import type { Provider } from '@nestjs/common';
import { BotStorageQueries } from './bot-storage.queries';
import { PutBotStorageHandler, RemoveBotStorageHandler } from './bot-storage.handler';

/** The bot storage area's handlers and queries, registered by ApplicationModule. */
export const BOT_STORAGE_HANDLERS: Provider[] = [PutBotStorageHandler, RemoveBotStorageHandler];
export const BOT_STORAGE_QUERIES: Provider[] = [BotStorageQueries];
