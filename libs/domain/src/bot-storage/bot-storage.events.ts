export type BotStorageEntry = { key: string; value: string };

/**
 * set_bot_storage: the entries of one `PUT /bot_storage` that add a key or change its value.
 * Old values are not repeated here: an entry may be megabytes, and the stream already holds them.
 */
export type BotStorageEntriesSet = {
  type: 'BotStorageEntriesSet';
  data: { botId: number; entries: BotStorageEntry[]; at: string };
};

/** remove_bot_storage: the keys removed by one `DELETE /bot_storage` (every key when none were named). */
export type BotStorageEntriesRemoved = {
  type: 'BotStorageEntriesRemoved';
  data: { botId: number; keys: string[]; at: string };
};

export type BotStorageEvent = BotStorageEntriesSet | BotStorageEntriesRemoved;

export const BOT_STORAGE_EVENT_TYPES: readonly BotStorageEvent['type'][] = ['BotStorageEntriesSet', 'BotStorageEntriesRemoved'];
