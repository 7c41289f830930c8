export const ALERT_WORDS = 'alert_words';

/**
 * The read model: one document per user with alert words, in the order they were added
 * (user_alert_words), indexed by organization so that a send reads every word of its
 * organization in one query (alert_words_in_realm).
 */
export type AlertWordsDocument = { user_id: number; realm_id: number; alert_words: string[] };
