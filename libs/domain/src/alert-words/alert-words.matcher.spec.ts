import { alertWordSource, userIdsWithAlertWords } from '@app/domain';

const HAMLET = 10;
const alerts = (content: string, words: string[] = ['one', 'two', 'three']) => userIdsWithAlertWords(content, { [HAMLET]: words }).includes(HAMLET);

/** ≈ zerver/tests/test_alert_words.py test_alert_flags, and the boundary sets of AlertWordNotificationProcessor. */
describe('userIdsWithAlertWords', () => {
  it('finds words in the middle, at the end and at the start of a message', () => {
    expect(alerts('Normal alert one time')).toBe(true);
    expect(alerts('Normal alert one')).toBe(true);
    expect(alerts('two normal alerts')).toBe(true);
  });

  it('accepts surrounding punctuation, several words and any case', () => {
    expect(alerts('This one? should alert')).toBe(true);
    expect(alerts('Definitely time for three.')).toBe(true);
    expect(alerts("One two three o'clock")).toBe(true);
    expect(alerts('Case of ONE, won\'t stop me')).toBe(true);
    expect(alerts('(one)')).toBe(true);
    expect(alerts('say "one" aloud')).toBe(false); // a double quote after the word is not in Zulip's after-set
  });

  it('does not match inside words or URLs', () => {
    expect(alerts("Don't alert on clone, twofold or seventytwofold")).toBe(false);
    expect(alerts("Don't alert on http://t.co/one/ URLs")).toBe(false);
    expect(alerts("Don't alert on http://t.co/one URLs")).toBe(false);
  });

  it('uses Zulip\'s exact boundary characters', () => {
    for (const before of [' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']) expect(alerts(`xx${before}one`)).toBe(true);
    for (const before of ['/', '-', '_', '<', ':', '#', '@']) expect(alerts(`xx${before}one`)).toBe(false);
    for (const after of [' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']) expect(alerts(`one${after}xx`)).toBe(true);
    // Zulip's after-set holds '",' (two characters), never equal to one character: a quote after the word does not count.
    for (const after of ['"', '-', '/', '(', '>', '_']) expect(alerts(`one${after}xx`)).toBe(false);
  });

  it('keeps Zulip\'s start check, which accepts any first character before a match at index 1', () => {
    expect(alerts('xone')).toBe(true);
    expect(alerts('xxone')).toBe(false);
  });

  it('matches multi-word and non-ASCII words, and tabs count as spaces', () => {
    expect(alerts('a multi-word word here', ['multi-word word'])).toBe(true);
    expect(alerts('snow ☃ man', ['☃'])).toBe(true);
    expect(alerts('x\tone')).toBe(true);
  });

  it('ignores fenced code blocks but not quote and spoiler blocks or inline code', () => {
    expect(alerts('look:\n```\none\n```\nok')).toBe(false);
    expect(alerts('~~~ python\nprint(one)\n~~~')).toBe(false);
    expect(alerts('```\nunclosed one')).toBe(false);
    expect(alerts('```quote\none\n```')).toBe(true);
    expect(alerts('```spoiler header\none\n```')).toBe(true);
    expect(alerts('the `one` thing')).toBe(true);
    expect(alerts('```\ncode\n```\nthen one')).toBe(true);
    expect(alertWordSource('a\r\nb\rc')).toBe('a\nb\nc');
  });

  it('answers every user whose word matches, ascending', () => {
    expect(userIdsWithAlertWords('Soup is ready', { 30: ['soup'], 20: ['SOUP'], 40: ['bread'], 50: [] })).toEqual([20, 30]);
    expect(userIdsWithAlertWords('anything', {})).toEqual([]);
  });
});
