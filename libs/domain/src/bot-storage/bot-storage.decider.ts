import type { Decider } from '../shared/decider';
import { BotStorageKeyDoesNotExistError, BotStorageLimitExceededError } from './bot-storage.errors';
import type { BotStorageEntry, BotStorageEvent } from './bot-storage.events';
import { entrySize } from './bot-storage.rules';

type Meta = { botId: number; now: string };

/** `PUT /bot_storage` (update_storage): add or replace entries. `sizeLimit` is the server's setting. */
export type PutBotStorage = { type: 'PutBotStorage'; data: Meta & { entries: BotStorageEntry[]; sizeLimit: number } };
/** `DELETE /bot_storage` (remove_storage): the named keys, or every key when none (or an empty list) are named. */
export type RemoveBotStorage = { type: 'RemoveBotStorage'; data: Meta & { keys?: string[] } };

export type BotStorageCommand = PutBotStorage | RemoveBotStorage;

/** The bot's entries and their total size (keys and values, in code points). */
export type BotStorageState = { entries: ReadonlyMap<string, string>; size: number };

/** One bot's storage (stream `bot_storage-<botId>`); authorization (bots only) is the caller's guard. */
export const botStorageDecider: Decider<BotStorageCommand, BotStorageEvent, BotStorageState> = {
  // The entries are a Map: the snapshot keeps them as [key, value] pairs.
  snapshot: {
    name: 'bot-storage',
    version: 1,
    encode: (state) => ({ entries: [...state.entries], size: state.size }),
    decode: (json: { entries: [string, string][]; size: number }) => ({ entries: new Map(json.entries), size: json.size }),
  },
  initialState: () => ({ entries: new Map(), size: 0 }),

  decide: (command, state) => {
    const { botId, now: at } = command.data;
    switch (command.type) {
      case 'PutBotStorage': {
        // set_bot_storage: the whole request fits or nothing is stored.
        const requested = new Map(command.data.entries.map((e) => [e.key, e.value]));
        let newSize = state.size;
        for (const [key, value] of requested) {
          const old = state.entries.get(key);
          newSize += entrySize(key, value) - (old === undefined ? 0 : entrySize(key, old));
        }
        const limit = command.data.sizeLimit;
        if (newSize > limit) throw new BotStorageLimitExceededError(newSize - limit, limit);
        const changed = [...requested].filter(([key, value]) => state.entries.get(key) !== value).map(([key, value]) => ({ key, value }));
        return changed.length === 0 ? [] : [{ type: 'BotStorageEntriesSet', data: { botId, entries: changed, at } }];
      }
      case 'RemoveBotStorage': {
        const named = command.data.keys ?? [];
        if (named.length === 0) {
          const keys = [...state.entries.keys()];
          return keys.length === 0 ? [] : [{ type: 'BotStorageEntriesRemoved', data: { botId, keys, at } }];
        }
        // remove_bot_storage compares the rows found with the number of keys named, repeats included.
        const keys = [...new Set(named)].filter((key) => state.entries.has(key));
        if (keys.length < named.length) throw new BotStorageKeyDoesNotExistError();
        return [{ type: 'BotStorageEntriesRemoved', data: { botId, keys, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'BotStorageEntriesSet': {
        const entries = new Map(state.entries);
        let size = state.size;
        for (const { key, value } of event.data.entries) {
          const old = entries.get(key);
          size += entrySize(key, value) - (old === undefined ? 0 : entrySize(key, old));
          entries.set(key, value);
        }
        return { entries, size };
      }
      case 'BotStorageEntriesRemoved': {
        const entries = new Map(state.entries);
        let size = state.size;
        for (const key of event.data.keys) {
          const old = entries.get(key);
          if (old === undefined) continue;
          size -= entrySize(key, old);
          entries.delete(key);
        }
        return { entries, size };
      }
      default:
        return state;
    }
  },
};
