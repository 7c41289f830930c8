import { compileLinkifier, expandUrlTemplate, isValidUrlTemplate, linkifyText, topicLinks, translateRe2Pattern, urlTemplateVariables } from '@app/domain';

const linkifier = (pattern: string, urlTemplate: string) => compileLinkifier({ pattern, urlTemplate })!;
const links = (text: string, ...pairs: [string, string][]) =>
  linkifyText(text, pairs.map(([p, t]) => linkifier(p, t))).map(({ text: t, url }) => [t, url]);

describe('re2 patterns', () => {
  it.each([
    ['(foo', 'missing ): (foo'],
    ['foo)', 'unexpected ): foo)'],
    ['\\d????', 'bad repetition operator: ????'],
    ['a**', 'bad repetition operator: **'],
    ['*a', 'no argument for repetition operator: *'],
    ['a{1001}', 'invalid repetition size: {1001}'],
    ['a{3,2}', 'invalid repetition size: {3,2}'],
    ['[abc', 'missing ]: [abc'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['a\\', 'trailing \\'],
    ['\\q', 'invalid escape sequence: \\q'],
    ['(?!a)', 'invalid perl operator: (?!'],
    ['(?<=a)b', 'invalid perl operator: (?<='],
    ['(?P<id>a)(?P<id>b)', 'invalid named capture group: (?P<id>'],
    ['(?P<a-b>x)', 'invalid named capture group: (?P<a-b>'],
    ['\\p{Nope}', 'invalid character class range: \\p{Nope}'],
    ['[[:nope:]]', 'invalid character class range: [:nope:]'],
  ])('rejects %j as re2 does: %s', (pattern, message) => expect(() => translateRe2Pattern(pattern)).toThrow(message));

  it('reads named groups in both spellings', () =>
    expect(translateRe2Pattern('(?P<org>\\w+)/(?<repo>\\w+)#(?P<id>\\d+)').groupNames).toEqual(['org', 'repo', 'id']));

  it('keeps a { that starts no repetition literal, as re2 does', () => expect(links('x{y}', ['x\\{?y}', 'https://a.test/'])).toEqual([['x{y}', 'https://a.test/']]));
});

describe('URL templates (RFC 6570)', () => {
  it.each([
    'http://example.com/', 'https://example.com/{foo}{bars}', 'https://example.com/%%(foo)s', 'https://example.com{/foo,bar,baz}',
    'https://example.com/{?foo*}', 'https://example.com/{+foo,bar}', 'https://chat{.domain}.com/{#foo}', '$not_a_url$', 'https://example.com/foo[bar]',
  ])('accepts %s', (template) => expect(isValidUrlTemplate(template)).toBe(true));

  it.each(['https://example.com/{foo', 'https://example.com/{{}', 'https://example.com/{//foo}', 'https://example.com/{bar++}', 'https://example.com/{}'])(
    'rejects %s', (template) => expect(isValidUrlTemplate(template)).toBe(false));

  it('lists the variables', () => expect(urlTemplateVariables('https://z{.domain}/t{/id}{?name,chapter}{#id}')).toEqual(['domain', 'id', 'name', 'chapter']));

  it('percent-encodes simple expansion and keeps reserved characters for + and #', () => {
    expect(expandUrlTemplate('https://x.test/{q}', { q: 'a b/ü?' })).toBe('https://x.test/a%20b%2F%C3%BC%3F');
    expect(expandUrlTemplate('https://x.test/{+q}', { q: 'a b/c%20' })).toBe('https://x.test/a%20b/c%20');
    expect(expandUrlTemplate('https://x.test/{#q}', { q: 'a/b' })).toBe('https://x.test/#a/b');
  });

  it('expands every operator, prefixes, and leaves out undefined values', () =>
    expect(expandUrlTemplate('https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}{&none}{;semi}', {
      zone: 'a', domain: 'b', location: 'c', id: 'd', name: 'nm', chapter: '12', fragment: 'abcdefgh', semi: '',
    })).toBe('https://zone_a.b.net/ticket/c/d?name=nm&chapter=12#abcde;semi'));
});

describe('linkifyText', () => {
  const issue: [string, string] = ['#(?P<id>[0-9]+)', 'https://trac.example.com/ticket/{id}'];

  it('links matches after a start, a space or an opening delimiter, not inside words', () =>
    expect(links('#1 see #22, (#3) a#4 #5x #6.', issue)).toEqual([
      ['#1', 'https://trac.example.com/ticket/1'],
      ['#22', 'https://trac.example.com/ticket/22'],
      ['#3', 'https://trac.example.com/ticket/3'],
      ['#6', 'https://trac.example.com/ticket/6'],
    ]));

  it('does not link before a non-ASCII letter (\\pL) but does before punctuation', () =>
    expect(links('#7é #8!', issue)).toEqual([['#8', 'https://trac.example.com/ticket/8']]));

  it('gives earlier linkifiers precedence over overlapping later ones', () =>
    expect(links('ZUL-12', ['ZUL-(?P<id>\\d+)', 'https://a.test/{id}'], ['(?P<p>[A-Z]+)-12', 'https://b.test/{p}'])).toEqual([['ZUL-12', 'https://a.test/12']]));

  it('matches case-insensitively with (?i), and Unicode classes', () =>
    expect(links('zul-3 Ωmega', ['(?i)ZUL-(?P<id>\\d+)', 'https://a.test/{id}'], ['(?P<w>\\p{Greek}\\pL+)', 'https://g.test/{w}'])).toEqual([
      ['zul-3', 'https://a.test/3'],
      ['Ωmega', 'https://g.test/%CE%A9mega'],
    ]));

  it('stays linear on a catastrophic pattern (the linear-engine fallback)', () => {
    const hostile = linkifier('(a+)+$', 'https://x.test/');
    const start = Date.now();
    expect(linkifyText(`${'a'.repeat(26)}!`, [hostile])).toEqual([]);
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe('topicLinks', () => {
  const linkifiers = [
    { id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://trac.example.com/ticket/{id}' },
    { id: 2, pattern: 'ZUL-(?P<id>\\d+)', urlTemplate: 'https://z.test/{id}' },
  ];

  it('lists linkifier matches and raw URLs by position', () =>
    expect(topicLinks('ZUL-5 and #12 see https://zulip.com/x.', linkifiers)).toEqual([
      { text: 'ZUL-5', url: 'https://z.test/5' },
      { text: '#12', url: 'https://trac.example.com/ticket/12' },
      { text: 'https://zulip.com/x', url: 'https://zulip.com/x' },
    ]));

  it('is empty without matches', () => expect(topicLinks('plain topic', linkifiers)).toEqual([]));

  it('given bare domains and addresses, when listed, then they link with https:// as Zulip topic_links does', () =>
    expect(topicLinks('zulip.com/api, readme.md (chat.zulip.org) mail a@b.com ZULIP.COM', [])).toEqual([
      { text: 'zulip.com/api', url: 'https://zulip.com/api' },
      { text: 'chat.zulip.org', url: 'https://chat.zulip.org' },
      { text: 'a@b.com', url: 'https://a@b.com' },
    ]));

  it('given a URL inside a segment, when listed, then it is found after an allowed character but not inside a word', () =>
    expect(topicLinks('x(https://a.test/b fix.py:3 note:zulip.com', [])).toEqual([
      { text: 'https://a.test/b', url: 'https://a.test/b' },
      { text: 'zulip.com', url: 'https://zulip.com' },
    ]));
});

describe('required literals (the prefilter)', () => {
  it.each([
    ['PROJ-(?P<id>\\d+)', ['PROJ-']],
    ['(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\\d+)', ['/', '#']],
    ['RFC ?(?P<n>\\d+)', ['RFC']],
    ['ab+c*d{0,2}e{2}', ['ab', 'e']],
    ['\\Qa.b\\E-(?P<x>\\d)', ['a.b-']],
    ['a|b', []],
    ['(?i)zul-\\d', []],
    ['(?:x)y', ['y']],
  ])('%s needs %j', (pattern, literals) => expect(translateRe2Pattern(pattern).requiredLiterals).toEqual(literals));

  it('never hides a match', () =>
    expect(links('a/b#1 RFC6570', ['(?P<o>\\w+)/(?P<r>\\w+)#(?P<id>\\d+)', 'https://g.test/{o}/{r}/{id}'], ['RFC ?(?P<n>\\d+)', 'https://rfc.test/{n}'])).toEqual([
      ['a/b#1', 'https://g.test/a/b/1'],
      ['RFC6570', 'https://rfc.test/6570'],
    ]));
});

describe('re2 semantics in the translation', () => {
  const matches = (pattern: string, text: string) => new RegExp(translateRe2Pattern(pattern).source).test(text);

  it.each([
    ['a.b', 'a\nb', false],
    ['(?s)a.b', 'a\nb', true],
    ['a\\sb', 'a\u00a0b', false],
    ['a\\sb', 'a\tb', true],
    ['(?i)[a-c]x', 'BX', true],
    ['(?i:a)b', 'AB', false],
    ['(?i:a)b', 'Ab', true],
    ['[[:digit:]]+', 'x7', true],
    ['[[:^alpha:]]', 'abc', false],
    ['\\Qa.b\\E', 'axb', false],
    ['\\Qa.b\\E', 'a.b', true],
    ['\\x41\\x{42}\\101', 'ABA', true],
    ['\\pL\\PL', 'é1', true],
    ['\\p{Greek}', 'a', false],
    ['[^\\d]', '5', false],
    ['a{2}', 'aa', true],
    ['x{y', 'x{y', true],
  ])('%s on %j: %s', (pattern, text, expected) => expect(matches(pattern, text)).toBe(expected));
});
