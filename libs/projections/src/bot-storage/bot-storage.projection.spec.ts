import { botStorageDocumentId } from '@app/application';
import { botStorageRemoved, botStorageSet, recorded, replay } from '@app/testing';
import { botStorageProjection } from './bot-storage.projection';

const after = (events: { type: string; data: object }[]) => replay(botStorageProjection, recorded(events, 'bot_storage-20'));

describe('botStorageProjection', () => {
  it('stores one document per entry, keyed by the bot and a digest of the key', () => {
    const docs = after([botStorageSet({ 'key 1': 'value 1', ['k'.repeat(5000)]: 'long key' })]);
    expect(docs.get(botStorageDocumentId(20, 'key 1'))).toEqual({ bot_id: 20, key: 'key 1', value: 'value 1' });
    expect([...docs.keys()].every((id) => id.length === 3 + 64)).toBe(true);
  });

  it('replaces values and removes entries', () => {
    const docs = after([botStorageSet({ a: '1', b: '2' }), botStorageSet({ a: '3' }), botStorageRemoved(['b'])]);
    expect([...docs.values()]).toEqual([{ bot_id: 20, key: 'a', value: '3' }]);
  });

  it('keeps bots apart', () => {
    const docs = after([botStorageSet({ a: '1' }, 20), botStorageSet({ a: '2' }, 21)]);
    expect(docs.get(botStorageDocumentId(21, 'a'))!.value).toBe('2');
    expect(docs.size).toBe(2);
  });
});
