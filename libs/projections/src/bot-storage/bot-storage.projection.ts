import { BOT_STORAGE_EVENT_TYPES, type BotStorageEvent } from '@app/domain';
import { BOT_STORAGE, botStorageDocumentId, type BotStorageDocument, type RecordedEvent } from '@app/application';
import { defineProjection } from '../shared/projection';

const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as BotStorageEvent;

/** The entries of one set event by document id, computed once per event (a put may carry thousands). */
const entriesById = new WeakMap<object, Map<string, { key: string; value: string }>>();
function entryFor(event: RecordedEvent, botId: number, entries: { key: string; value: string }[], id: string) {
  let byId = entriesById.get(event);
  if (!byId) {
    byId = new Map(entries.map((entry) => [botStorageDocumentId(botId, entry.key), entry]));
    entriesById.set(event, byId);
  }
  return byId.get(id);
}

/** One document per entry of a bot's storage, from `bot_storage-<botId>`. */
export const botStorageProjection = defineProjection<BotStorageDocument>({
  name: 'bot_storage',
  // Keys are not indexed: they are arbitrary text of any length, found through the document id.
  collection: { name: BOT_STORAGE, fields: [{ name: 'bot_id', type: 'number' }] },
  handles: BOT_STORAGE_EVENT_TYPES,
  idsOf: (event) => {
    const e = asEvent(event);
    const keys = e.type === 'BotStorageEntriesSet' ? e.data.entries.map((entry) => entry.key) : e.data.keys;
    return keys.map((key) => botStorageDocumentId(e.data.botId, key));
  },
  evolve: (doc, event, id) => {
    const e = asEvent(event);
    switch (e.type) {
      case 'BotStorageEntriesSet': {
        const entry = entryFor(event, e.data.botId, e.data.entries, id);
        return entry ? { bot_id: e.data.botId, key: entry.key, value: entry.value } : doc;
      }
      case 'BotStorageEntriesRemoved':
        return null;
    }
  },
});
