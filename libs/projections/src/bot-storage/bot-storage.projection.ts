import { BOT_STORAGE_EVENT_TYPES, type BotStorageEvent } from '@app/domain';
import { BOT_STORAGE, botStorageDocumentId, type BotStorageDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

type Entry = { key: string; value: string };

/** One document per entry of a bot's storage, from `bot_storage-<botId>`. */
export const botStorageProjection = defineProjection<BotStorageDocument, BotStorageEvent, Map<string, Entry> | undefined>({
  name: 'bot_storage',
  // Keys are not indexed: they are arbitrary text of any length, found through the document id.
  collection: { name: BOT_STORAGE, fields: [{ name: 'bot_id', type: 'number' }] },
  handles: BOT_STORAGE_EVENT_TYPES,
  idsOf: (e) => {
    const keys = e.type === 'BotStorageEntriesSet' ? e.data.entries.map((entry) => entry.key) : e.data.keys;
    return keys.map((key) => botStorageDocumentId(e.data.botId, key));
  },
  // A set's entries by document id, once per event (a put may carry thousands).
  prepare: (e) => (e.type === 'BotStorageEntriesSet' ? new Map(e.data.entries.map((entry) => [botStorageDocumentId(e.data.botId, entry.key), entry])) : undefined),
  evolve: (doc, e, id, entries) => {
    switch (e.type) {
      case 'BotStorageEntriesSet': {
        const entry = entries?.get(id);
        return entry ? { bot_id: e.data.botId, key: entry.key, value: entry.value } : doc;
      }
      case 'BotStorageEntriesRemoved':
        return null;
    }
  },
});
