import { ALERT_WORD_EVENT_TYPES, type AlertWordEvent } from '@app/domain';
import { ALERT_WORDS, type AlertWordsDocument, type RecordedEvent } from '@app/application';
import { defineProjection } from '../shared/projection';

const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as AlertWordEvent;

/** Each user's alert words in the order they were added (user_alert_words), from `alert_words-<userId>`. */
export const alertWordsProjection = defineProjection<AlertWordsDocument>({
  name: 'alert_words',
  collection: { name: ALERT_WORDS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: ALERT_WORD_EVENT_TYPES,
  idsOf: (event) => [String(asEvent(event).data.userId)],
  evolve: (doc, event) => {
    const e = asEvent(event);
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
