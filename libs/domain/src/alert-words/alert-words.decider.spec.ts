import { deciderSpec } from '@app/testing';
import { AlertWordTooLongError, alertWordsDecider, type AlertWordEvent, type AlertWordsCommand } from '@app/domain';

const given = deciderSpec(alertWordsDecider);
const NOW = '2026-02-03T04:05:06.000Z';
const meta = { realmId: 1, userId: 10, now: NOW };
const add = (...words: string[]): AlertWordsCommand => ({ type: 'AddAlertWords', data: { ...meta, words } });
const remove = (...words: string[]): AlertWordsCommand => ({ type: 'RemoveAlertWords', data: { ...meta, words } });
const added = (...words: string[]): AlertWordEvent => ({ type: 'AlertWordsAdded', data: { realmId: 1, userId: 10, words, at: NOW } });
const removed = (...words: string[]): AlertWordEvent => ({ type: 'AlertWordsRemoved', data: { realmId: 1, userId: 10, words, at: NOW } });

describe('alertWordsDecider', () => {
  describe('AddAlertWords', () => {
    it('adds words stripped, dropping blanks (clean_alert_words)', () =>
      given([]).when(add('one ', '\n two', 'three', '   ', '')).then([added('one', 'two', 'three')]));

    it('keeps multi-word and non-ASCII words as given', () => given([]).when(add('multi-word word', '☃')).then([added('multi-word word', '☃')]));

    it('skips words already present in any case', () => given([added('alert')]).when(add('ALert', 'ALERT', 'new')).then([added('new')]));

    it('among spellings of one new word, keeps the last spelling at the first one\'s place', () =>
      given([]).when(add('Milk', 'cookies', 'MILK')).then([added('MILK', 'cookies')]));

    it('records nothing when every word is known or blank', () => given([added('one')]).when(add('ONE', ' ')).thenNothingHappened());

    it('refuses a word over 100 characters, naming its index, before stripping', () => {
      given([]).when(add('ok', 'x'.repeat(101))).thenThrows(AlertWordTooLongError, 'alert_words[1] is too long (limit: 100 characters)');
      given([]).when(add(` ${'x'.repeat(100)}`)).thenThrows(AlertWordTooLongError, 'alert_words[0] is too long');
      expect(given([]).when(add('☃'.repeat(100))).events()).toHaveLength(1);
    });
  });

  describe('RemoveAlertWords', () => {
    it('removes stored words equal ignoring case', () => given([added('alert', 'Two', 'three')]).when(remove('ALert', 'two')).then([removed('alert', 'Two')]));

    it('does not strip the words to remove', () => given([added('one')]).when(remove(' one')).thenNothingHappened());

    it('records nothing for words not stored', () => given([added('one'), removed('one')]).when(remove('one', 'other')).thenNothingHappened());

    it('adds a removed word again', () => given([added('one'), removed('one')]).when(add('One')).then([added('One')]));
  });
});
