import type { AlertWordEvent } from '@app/domain';
import type { Recorded } from '../shared/projection';
import { alertWordsProjection } from './alert-words.projection';

const recorded = (type: AlertWordEvent['type'], data: AlertWordEvent['data']) => ({ type, data, position: 1n }) as unknown as Recorded<AlertWordEvent>;
const AT = '2026-01-01T00:00:00.000Z';

describe('alertWordsProjection', () => {
  it('keeps the words in the order they were added and drops removed ones', () => {
    let doc = alertWordsProjection.evolve(null, recorded('AlertWordsAdded', { realmId: 1, userId: 10, words: ['one', 'Two'], at: AT }), '10');
    doc = alertWordsProjection.evolve(doc, recorded('AlertWordsAdded', { realmId: 1, userId: 10, words: ['three'], at: AT }), '10');
    expect(doc).toEqual({ user_id: 10, realm_id: 1, alert_words: ['one', 'Two', 'three'] });
    doc = alertWordsProjection.evolve(doc, recorded('AlertWordsRemoved', { realmId: 1, userId: 10, words: ['Two'], at: AT }), '10');
    expect(doc).toEqual({ user_id: 10, realm_id: 1, alert_words: ['one', 'three'] });
  });

  it('files each document under its user and organization', () => {
    expect(alertWordsProjection.idsOf(recorded('AlertWordsAdded', { realmId: 1, userId: 10, words: ['x'], at: AT }))).toEqual(['10']);
    expect(alertWordsProjection.handles).toEqual(['AlertWordsAdded', 'AlertWordsRemoved']);
  });
});
