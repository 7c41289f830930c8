import { buildNarrowPredicate } from './narrow-predicate';

/** ≈ zerver/tests/test_message_fetch.py NarrowLibraryTest.test_build_narrow_predicate. */
describe('buildNarrowPredicate', () => {
  const stream = { type: 'stream', display_recipient: 'Devel', subject: '✔ Lunch plans', sender_email: 'Hamlet@acme.test' };
  const dm = { type: 'private', display_recipient: [], subject: '', sender_email: 'cordelia@acme.test' };

  it('matches channels, topics (or a word of them), senders and flags as Zulip does', () => {
    expect(buildNarrowPredicate([['channel', 'devel']])(stream, [])).toBe(true);
    expect(buildNarrowPredicate([['stream', 'devel']])(dm, [])).toBe(false);
    expect(buildNarrowPredicate([['topic', 'lunch']])(stream, [])).toBe(true);
    expect(buildNarrowPredicate([['topic', 'lun']])(stream, [])).toBe(false);
    expect(buildNarrowPredicate([['exact-topic', '✔ Lunch plans']])(stream, [])).toBe(true);
    expect(buildNarrowPredicate([['sender', 'hamlet@ACME.test']])(stream, [])).toBe(true);
    expect(buildNarrowPredicate([['is', 'dm']])(dm, [])).toBe(true);
    expect(buildNarrowPredicate([['is', 'private']])(stream, [])).toBe(false);
    expect(buildNarrowPredicate([['is', 'starred']])(stream, ['starred'])).toBe(true);
    expect(buildNarrowPredicate([['is', 'unread']])(stream, ['read'])).toBe(false);
    expect(buildNarrowPredicate([['is', 'alerted']])(stream, ['mentioned'])).toBe(true);
    expect(buildNarrowPredicate([['is', 'resolved']])(stream, [])).toBe(true);
    expect(buildNarrowPredicate([['channel', 'devel'], ['is', 'unread']])(stream, ['read'])).toBe(false);
  });

  it('refuses what check_narrow_for_events refuses', () => {
    expect(() => buildNarrowPredicate([['search', 'x']])).toThrow('Operator search not supported.');
    expect(() => buildNarrowPredicate([['is', 'followed']])).toThrow('Operand followed not supported.');
  });
});
