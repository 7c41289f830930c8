import type { Decider } from '../shared/decider';
import { AlertWordTooLongError, MAX_ALERT_WORD_LENGTH } from './alert-words.errors';
import type { AlertWordEvent } from './alert-words.events';

type Meta = { realmId: number; userId: number; now: string };

/** `POST /users/me/alert_words` (add_alert_words): the words as the client sent them. */
export type AddAlertWords = { type: 'AddAlertWords'; data: Meta & { words: string[] } };
/** `DELETE /users/me/alert_words` (remove_alert_words): the words as the client sent them. */
export type RemoveAlertWords = { type: 'RemoveAlertWords'; data: Meta & { words: string[] } };

export type AlertWordsCommand = AddAlertWords | RemoveAlertWords;

/** The user's alert words, in the order they were added (user_alert_words). */
export type AlertWordsState = { words: string[] };

/** Length in characters as Python counts them (code points), not UTF-16 units. */
const characters = (word: string) => [...word].length;

/** zerver/views/alert_words.py clean_alert_words: stripped, blanks dropped. */
export const cleanAlertWords = (words: string[]): string[] => words.map((w) => w.trim()).filter((w) => w !== '');

/**
 * One user's alert words (stream `alert_words-<userId>`), with zerver/lib/alert_words.py's rules:
 * adding keeps the case given but skips words already present in any case, and among several
 * spellings of one new word in a request the last spelling wins (a dict keyed by the lower-cased
 * word); removing takes the words as sent (not stripped) and removes every stored word equal to
 * one of them ignoring case. A request that changes nothing records nothing.
 */
export const alertWordsDecider: Decider<AlertWordsCommand, AlertWordEvent, AlertWordsState> = {
  snapshot: { name: 'alert_words', version: 1 },
  initialState: () => ({ words: [] }),

  decide: (command, state) => {
    const { realmId, userId, now: at, words } = command.data;
    switch (command.type) {
      case 'AddAlertWords': {
        // The length is checked on the words as sent, before stripping (the pydantic constraint).
        words.forEach((word, index) => {
          if (characters(word) > MAX_ALERT_WORD_LENGTH) throw new AlertWordTooLongError(index);
        });
        const existing = new Set(state.words.map((w) => w.toLowerCase()));
        const added = new Map<string, string>();
        for (const word of cleanAlertWords(words)) {
          const key = word.toLowerCase();
          if (!existing.has(key)) added.set(key, word);
        }
        if (added.size === 0) return [];
        return [{ type: 'AlertWordsAdded', data: { realmId, userId, words: [...added.values()], at } }];
      }
      case 'RemoveAlertWords': {
        const doomed = new Set(words.map((w) => w.toLowerCase()));
        const removed = state.words.filter((w) => doomed.has(w.toLowerCase()));
        if (removed.length === 0) return [];
        return [{ type: 'AlertWordsRemoved', data: { realmId, userId, words: removed, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'AlertWordsAdded':
        return { words: [...state.words, ...event.data.words] };
      case 'AlertWordsRemoved': {
        const gone = new Set(event.data.words);
        return { words: state.words.filter((w) => !gone.has(w)) };
      }
      default:
        return state;
    }
  },
};
