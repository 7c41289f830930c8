import { ALERT_WORD_EVENT_TYPES, type AlertWordEvent } from '@app/domain';
import { ALERT_WORDS, type AlertWordsDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/** Each user's alert words in the order they were added (user_alert_words), from `alert_words-<userId>`. */
export const alertWordsProjection = defineProjection<AlertWordsDocument, AlertWordEvent>({
  name: 'alert_words',
  collection: { name: ALERT_WORDS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: ALERT_WORD_EVENT_TYPES,
  idsOf: (event) => [String(event.data.userId)],
  evolve: (doc, e) => {
    const current = doc ?? { user_id: e.data.userId, realm_id: e.data.realmId, alert_words: [] };
    switch (e.type) {
      case 'AlertWordsAdded':
        return { ...current, alert_words: [...current.alert_words, ...e.data.words] };
      case 'AlertWordsRemoved': {
        const gone = new Set(e.data.words);
        return { ...current, alert_words: current.alert_words.filter((w) => !gone.has(w)) };
      }
    }
  },
});
