/**
 * A bot's storage (Zulip's BotStorageData rows) lives on one stream per bot, `bot_storage-<botId>`:
 * the storage size limit is an invariant over all of one bot's entries, so one put must see them
 * all, and bots never contend with each other.
 */
export const botStorageStream = (botId: number) => `bot_storage-${botId}`;
