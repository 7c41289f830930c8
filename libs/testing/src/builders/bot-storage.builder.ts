import type { BotStorageEvent } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

export const botStorageSet = (entries: Record<string, string>, botId = 20): BotStorageEvent => ({
  type: 'BotStorageEntriesSet', data: { botId, entries: Object.entries(entries).map(([key, value]) => ({ key, value })), at: AT },
});

export const botStorageRemoved = (keys: string[], botId = 20): BotStorageEvent => ({ type: 'BotStorageEntriesRemoved', data: { botId, keys, at: AT } });
