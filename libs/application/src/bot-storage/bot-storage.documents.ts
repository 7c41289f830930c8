import { createHash } from 'node:crypto';

export const BOT_STORAGE = 'bot_storage';

/** One entry of a bot's storage (Zulip's BotStorageData row). */
export type BotStorageDocument = { bot_id: number; key: string; value: string };

/**
 * Document id of an entry: the bot and a digest of the key, because keys are arbitrary text of
 * any length and ids must stay short enough for every store's primary key.
 */
export const botStorageDocumentId = (botId: number, key: string): string =>
  `${botId}:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
