/**
 * Words added to a user's alert words (do_add_alert_words): only the words that were new, in the
 * case they were given in, in the order they joined the list.
 */
export type AlertWordsAdded = { type: 'AlertWordsAdded'; data: { realmId: number; userId: number; words: string[]; at: string } };

/** Words removed from a user's alert words (do_remove_alert_words): the stored words that went. */
export type AlertWordsRemoved = { type: 'AlertWordsRemoved'; data: { realmId: number; userId: number; words: string[]; at: string } };

export type AlertWordEvent = AlertWordsAdded | AlertWordsRemoved;

export const ALERT_WORD_EVENT_TYPES: readonly AlertWordEvent['type'][] = ['AlertWordsAdded', 'AlertWordsRemoved'];
