import { botStorageRemoved, botStorageSet, deciderSpec } from '@app/testing';
import {
  BOT_STORAGE_SIZE_LIMIT,
  BotStorageKeyDoesNotExistError,
  BotStorageLimitExceededError,
  botStorageDecider,
  foldEvents,
  pythonLength,
  type BotStorageCommand,
} from '@app/domain';

const given = deciderSpec(botStorageDecider);
const NOW = '2026-02-03T04:05:06.000Z';

const put = (entries: Record<string, string>, sizeLimit = BOT_STORAGE_SIZE_LIMIT): BotStorageCommand => ({
  type: 'PutBotStorage', data: { botId: 20, now: NOW, sizeLimit, entries: Object.entries(entries).map(([key, value]) => ({ key, value })) },
});
const remove = (keys?: string[]): BotStorageCommand => ({ type: 'RemoveBotStorage', data: { botId: 20, now: NOW, keys } });
const at = <E extends { data: object }>(event: E): E => ({ ...event, data: { ...event.data, at: NOW } });

describe('botStorageDecider', () => {
  describe('PutBotStorage', () => {
    it('stores new entries and changed values, leaving unchanged ones out of the event', () =>
      given([botStorageSet({ 'key 1': 'value 1', 'key 2': 'value 2' })])
        .when(put({ 'key 1': 'new value', 'key 2': 'value 2', 'key 4': 'value 4' }))
        .then([at(botStorageSet({ 'key 1': 'new value', 'key 4': 'value 4' }))]));

    it('does nothing when every value is already stored, or nothing is given', () => {
      given([botStorageSet({ a: 'b' })]).when(put({ a: 'b' })).thenNothingHappened();
      given([]).when(put({})).thenNothingHappened();
    });

    it('refuses a request that would exceed the limit, by how much, storing nothing of it (Zulip\'s test numbers)', () => {
      const key = 'capacity-filling entry';
      given([botStorageSet({ [key]: 'x'.repeat(100 - key.length) })])
        .when(put({ 'too much data': 'a few bits too long' }, 100))
        .thenThrows(BotStorageLimitExceededError, 'Request exceeds storage limit by 32 characters. The limit is 100 characters.');
    });

    it('counts a replaced value once, and removed entries not at all', () => {
      given([botStorageSet({ k: 'x'.repeat(99) })]).when(put({ k: 'y'.repeat(99) }, 100)).thenMatches([{ type: 'BotStorageEntriesSet' }]);
      given([botStorageSet({ k: 'x'.repeat(99) }), botStorageRemoved(['k'])]).when(put({ j: 'y'.repeat(99) }, 100)).thenMatches([{ type: 'BotStorageEntriesSet' }]);
      given([botStorageSet({ k: 'x'.repeat(99) })]).when(put({ j: '' }, 100)).thenThrows(BotStorageLimitExceededError, 'Request exceeds storage limit by 1 characters. The limit is 100 characters.');
    });

    it('counts characters as Python does (code points)', () => {
      expect(pythonLength('🙂a\u{10000}')).toBe(3);
      given([]).when(put({ k: '🙂'.repeat(99) }, 100)).thenMatches([{ type: 'BotStorageEntriesSet' }]);
    });

    it('keeps keys that would be special in a JavaScript object as ordinary keys', () => {
      const entries = [{ key: '__proto__', value: 'p' }, { key: 'constructor', value: 'c' }];
      const state = foldEvents(botStorageDecider, [{ type: 'BotStorageEntriesSet', data: { botId: 20, entries, at: NOW } }]);
      expect([...state.entries]).toEqual([['__proto__', 'p'], ['constructor', 'c']]);
      expect(state.size).toBe(22);
    });
  });

  describe('RemoveBotStorage', () => {
    const stored = botStorageSet({ 'key 1': 'v', 'key 2': 'v', 'key 3': 'v' });

    it('removes the named keys', () => given([stored]).when(remove(['key 1', 'key 2'])).then([at(botStorageRemoved(['key 1', 'key 2']))]));

    it('removes everything when no keys, or an empty list, are named', () => {
      given([stored, botStorageRemoved(['key 2'])]).when(remove()).then([at(botStorageRemoved(['key 1', 'key 3']))]);
      given([stored]).when(remove([])).then([at(botStorageRemoved(['key 1', 'key 2', 'key 3']))]);
      given([]).when(remove()).thenNothingHappened();
    });

    it('removes nothing when one named key does not exist (or is named twice)', () => {
      given([stored]).when(remove(['key 3', 'nonexistent key'])).thenThrows(BotStorageKeyDoesNotExistError, 'Key does not exist.');
      given([stored]).when(remove(['key 3', 'key 3'])).thenThrows(BotStorageKeyDoesNotExistError);
      given([stored, botStorageRemoved(['key 3'])]).when(remove(['key 3'])).thenThrows(BotStorageKeyDoesNotExistError);
    });

    it('frees the space of removed entries', () =>
      expect(foldEvents(botStorageDecider, [botStorageSet({ ab: 'cd', e: 'f' }), botStorageRemoved(['ab'])]).size).toBe(2));
  });
});
