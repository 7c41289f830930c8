import { createMarkdown, possibleReferences, renderMessage, type RenderContext } from './render-message';
import { hashUtilEncode } from './url-encoding';

const context: RenderContext = {
  users: [
    { id: 10, fullName: 'King Hamlet', isActive: true },
    { id: 11, fullName: 'Cordelia Lear', isActive: true },
    { id: 12, fullName: 'Gone Away', isActive: false },
    { id: 13, fullName: 'Twin', isActive: true },
    { id: 14, fullName: 'Twin', isActive: true },
  ],
  channels: [
    { id: 5, name: 'Denmark' },
    { id: 6, name: 'design team' },
  ],
  emptyTopicDisplayName: 'general chat',
};
const render = (content: string) => renderMessage(content, context);
const html = (content: string) => render(content).html;

describe('renderMessage', () => {
  describe('Markdown', () => {
    it('renders paragraphs, emphasis and single newlines as <br> (nl2br)', () =>
      expect(html('**bold** _it_\nnext')).toBe('<p><strong>bold</strong> <em>it</em><br>\nnext</p>'));

    it('renders quotes as Zulip does', () => expect(html('> quoted')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>'));

    it('renders ```quote fences as quotations', () =>
      expect(html('```quote\nhello\n```')).toBe('<blockquote>\n<p>hello</p>\n</blockquote>'));

    it('renders code blocks in a codehilite div, escaped, with the language', () =>
      expect(html('```js\nconst a = "<b>";\n```')).toBe(
        '<div class="codehilite" data-code-language="js"><pre><span></span><code>const a = &quot;&lt;b&gt;&quot;;\n</code></pre></div>',
      ));

    it('renders inline code literally, without chat syntax inside', () =>
      expect(html('`@**King Hamlet** :smile:`')).toBe('<p><code>@**King Hamlet** :smile:</code></p>'));

    it('links URLs, opening them in a new tab without an opener', () =>
      expect(html('see https://example.com/x')).toBe(
        '<p>see <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">https://example.com/x</a></p>',
      ));

    it('renders Markdown links the same way', () =>
      expect(html('[docs](https://zulip.com)')).toBe('<p><a href="https://zulip.com" target="_blank" rel="noopener noreferrer">docs</a></p>'));

    it('does not render inline images (links only)', () => expect(html('![x](https://a.test/i.png)')).not.toContain('<img'));
  });

  describe('mentions', () => {
    it('renders a user mention and reports it', () => {
      const result = render('hi @**King Hamlet**');
      expect(result.html).toBe('<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span></p>');
      expect(result.mentionedUserIds).toEqual([10]);
    });

    it('matches names case-insensitively and shows the real name', () =>
      expect(html('@**king hamlet**')).toBe('<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>'));

    it('accepts @**Name|id** and @**|id**, but not a name that is not the id\'s', () => {
      expect(render('@**Twin|14**').mentionedUserIds).toEqual([14]);
      expect(render('@**|11**').html).toBe('<p><span class="user-mention" data-user-id="11">@Cordelia Lear</span></p>');
      expect(render('@**King Hamlet|11**')).toMatchObject({ mentionedUserIds: [], html: '<p>@<strong>King Hamlet|11</strong></p>' });
    });

    it('renders silent mentions without @ and without mentioning', () => {
      const result = render('@_**Cordelia Lear**');
      expect(result.html).toBe('<p><span class="user-mention silent" data-user-id="11">Cordelia Lear</span></p>');
      expect(result.mentionedUserIds).toEqual([]);
    });

    it('makes mentions of deactivated users silent', () =>
      expect(render('@**Gone Away**')).toMatchObject({
        html: '<p><span class="user-mention silent" data-user-id="12">Gone Away</span></p>',
        mentionedUserIds: [],
      }));

    it('leaves unknown names as typed', () => expect(render('@**Nobody**')).toMatchObject({ mentionedUserIds: [], html: '<p>@<strong>Nobody</strong></p>' }));

    it('needs a mention to start a word', () => expect(render('mail@**King Hamlet**').mentionedUserIds).toEqual([]));

    it.each(['all', 'everyone', 'channel', 'stream'])('renders @**%s** as a channel wildcard', (name) => {
      const result = render(`@**${name}**`);
      expect(result.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${name}</span></p>`);
      expect(result).toMatchObject({ streamWildcard: true, topicWildcard: false });
    });

    it('renders @**topic** as a topic wildcard', () =>
      expect(render('@**topic**')).toMatchObject({ html: '<p><span class="topic-mention">@topic</span></p>', topicWildcard: true, streamWildcard: false }));

    it('a silent wildcard mentions nobody', () => expect(render('@_**all**')).toMatchObject({ streamWildcard: false }));

    it('does not mention inside code blocks', () =>
      expect(render('```\n@**all** @**King Hamlet**\n```')).toMatchObject({ streamWildcard: false, mentionedUserIds: [] }));
  });

  describe('channel links and emoji', () => {
    it('links #**channel**', () =>
      expect(html('#**Denmark**')).toBe('<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-Denmark">#Denmark</a></p>'));

    it('links #**channel>topic**, the empty topic shown by its display name', () => {
      expect(html('#**design team>a.b c**')).toBe(
        '<p><a class="stream-topic" data-stream-id="6" href="/#narrow/channel/6-design-team/topic/a.2Eb.20c">#design team &gt; a.b c</a></p>',
      );
      expect(html('#**Denmark>**')).toBe(
        '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-Denmark/topic/">#Denmark &gt; <em>general chat</em></a></p>',
      );
    });

    it('leaves links to unknown channels as typed', () => expect(html('#**Nowhere**')).toBe('<p>#<strong>Nowhere</strong></p>'));

    it('renders known emoji and leaves unknown names', () => {
      expect(html(':octopus:')).toBe('<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>');
      expect(html(':not_an_emoji:')).toBe('<p>:not_an_emoji:</p>');
    });

    it('encodes hash components as Zulip does', () => expect(hashUtilEncode('a.b/ü %')).toBe('a.2Eb.2F.C3.BC.20.25'));
  });

  describe('XSS', () => {
    const vectors = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](java\tscript:alert(1))',
      '[x](vbscript:msgbox(1))',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '<javascript:alert(1)>',
      '[x](https://a.test/"onmouseover="alert(1))',
      '@**"><script>alert(1)</script>**',
      '#**"><svg onload=alert(1)>**',
      '<iframe src="https://evil.test"></iframe>',
      '<style>body{display:none}</style>',
      '```"><script>alert(1)</script>\ncode\n```',
      '<<script>script>alert(1)<</script>/script>',
    ];

    it.each(vectors)('never lets raw HTML or a script URL through: %s', (vector) => {
      const out = html(vector);
      expect(out).not.toMatch(/<(script|img|iframe|svg|style)/i);
      expect(out).not.toMatch(/href="\s*(javascript|vbscript|data):/i);
      expect(out).not.toMatch(/<[^>]*\son[a-z]+\s*=/i); // an event handler inside a real tag
    });

    it('escapes a mentioned user name that contains markup', () => {
      const result = renderMessage('@**<b>x</b>**', { ...context, users: [{ id: 99, fullName: '<b>x</b>', isActive: true }] });
      expect(result.html).toBe('<p><span class="user-mention" data-user-id="99">@&lt;b&gt;x&lt;/b&gt;</span></p>');
    });

    it('escapes channel names in link text and attributes', () => {
      const out = renderMessage('#**a"b<c**', { ...context, channels: [{ id: 7, name: 'a"b<c' }] }).html;
      expect(out).toBe('<p><a class="stream" data-stream-id="7" href="/#narrow/channel/7-a.22b.3Cc">#a&quot;b&lt;c</a></p>');
    });
  });

  describe('flags for search narrows', () => {
    it('reports links, images and uploads', () => {
      expect(render('https://a.test/x')).toMatchObject({ hasLink: true, hasImage: false, hasAttachment: false });
      expect(render('[f](/user_uploads/2/ab/pic.png)')).toMatchObject({ hasLink: true, hasImage: true, hasAttachment: true });
      expect(render('plain')).toMatchObject({ hasLink: false });
    });
  });
});

// Zulip's AutoLink (zerver/lib/markdown get_web_link_regex, url_to_a) and its linkify_tests in
// zerver/tests/fixtures/markdown_test_cases.json: `%s` there is `<a href="http://…">…</a>`.
describe('renderMessage: links without a scheme (Zulip AutoLink)', () => {
  const a = (href: string, text: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;
  const web = (text: string) => a(`http://${text}`, text);

  describe('bare domains', () => {
    it.each([
      ['with short example.com url', `<p>with short ${web('example.com')} url</p>`],
      ['t.co', `<p>${web('t.co')}</p>`],
      ['go to views.org please', `<p>go to ${web('views.org')} please</p>`],
      ['I spent a year at ucl.ac.uk', `<p>I spent a year at ${web('ucl.ac.uk')}</p>`],
      ['see zulip.com', `<p>see ${web('zulip.com')}</p>`],
    ])('given a domain with a known TLD, when rendered, then it links to http://: %s', (content, expected) => expect(html(content)).toBe(expected));

    it('given a www host, when rendered, then it links like any other domain', () =>
      expect(html('end with an exclamation www.google.com!')).toBe(`<p>end with an exclamation ${web('www.google.com')}!</p>`));

    it.each([
      ['with www www.zulip.com/foo ok?', `<p>with www ${web('www.zulip.com/foo')} ok?</p>`],
      ['goo.gl/abc', `<p>${web('goo.gl/abc')}</p>`],
      ['foo.com/a::trollface::b', `<p>${web('foo.com/a::trollface::b')}</p>`],
      ['zulip.com/search?q=a&b=c#top', `<p>${a('http://zulip.com/search?q=a&amp;b=c#top', 'zulip.com/search?q=a&amp;b=c#top')}</p>`],
    ])('given a path, query or fragment, when rendered, then they are part of the link: %s', (content, expected) =>
      expect(html(content)).toBe(expected));

    it.each([
      ['allow questions like foo.com?', `<p>allow questions like ${web('foo.com')}?</p>`],
      ['"is.gd/foo/"', `<p>&quot;${web('is.gd/foo/')}&quot;</p>`],
      ['end with a quote www.google.com"', `<p>end with a quote ${web('www.google.com')}&quot;</p>`],
      ['see zulip.com.', `<p>see ${web('zulip.com')}.</p>`],
      ['see zulip.com/api, then', `<p>see ${web('zulip.com/api')}, then</p>`],
      ['from zulip.com/api:', `<p>from ${web('zulip.com/api')}:</p>`],
    ])('given trailing punctuation, when rendered, then it stays out of the link: %s', (content, expected) => expect(html(content)).toBe(expected));

    it.each([
      ['(see zulip.com)', `<p>(see ${web('zulip.com')})</p>`],
      ['(zulip.com/foo)', `<p>(${web('zulip.com/foo')})</p>`],
      ['nested with autodetection zulip.us/(we_like_(to_n(e)st_)_n(es)t)_nest', `<p>nested with autodetection ${web('zulip.us/(we_like_(to_n(e)st_)_n(es)t)_nest')}</p>`],
    ])('given parentheses, when rendered, then balanced ones are in the link and an enclosing pair is not: %s', (content, expected) =>
      expect(html(content)).toBe(expected));

    it.each([
      ['javascript:foo.com', `<p>javascript:${web('foo.com')}</p>`],
      ['about:blank.com', `<p>about:${web('blank.com')}</p>`],
      ['sorry,zulip.com', `<p>sorry,${web('zulip.com')}</p>`],
    ])('given a colon or a comma before a domain, when rendered, then the domain links as in Zulip: %s', (content, expected) =>
      expect(html(content)).toBe(expected));

    it.each([
      ['readme.md'],
      ['python class views.py is'],
      ['Main.java and clip.mov and src.zip'],
      ['a.commandstuff()'],
      ['love...it'],
      ['file.txt index.html'],
      ['ZULIP.COM'],
      ['javascript://foo.com'],
      ['zulip.com-beta and zulip.com\'s site'],
      ['a/zulip.com and [zulip.com and *zulip.com* and **zulip.com**'],
    ])('given a domain-like word Zulip does not link, when rendered, then it stays text: %s', (content) => {
      const out = render(content);
      expect(out.html).not.toContain('<a');
      expect(out.hasLink).toBe(false);
    });

    it.each([
      ['`zulip.com`', '<p><code>zulip.com</code></p>'],
      ['```\nzulip.com\n```', '<div class="codehilite"><pre><span></span><code>zulip.com\n</code></pre></div>'],
      ['    zulip.com', '<div class="codehilite"><pre><span></span><code>zulip.com\n</code></pre></div>'],
      ['`x`zulip.com', '<p><code>x</code>zulip.com</p>'],
    ])('given a domain in or right after code, when rendered, then it is not linked: %s', (content, expected) => expect(html(content)).toBe(expected));

    it('given a domain in a Markdown link or a link with a scheme, when rendered, then it is linked once', () => {
      expect(html('[see zulip.com](https://zulip.com)')).toBe(`<p>${a('https://zulip.com', 'see zulip.com')}</p>`);
      expect(html('https://chat.zulip.org/x.com')).toBe(`<p>${a('https://chat.zulip.org/x.com', 'https://chat.zulip.org/x.com')}</p>`);
      expect(html('https://zulip.com and zulip.org')).toBe(`<p>${a('https://zulip.com', 'https://zulip.com')} and ${web('zulip.org')}</p>`);
    });

    it('given domains across lines, in lists and quotes, when rendered, then each links', () => {
      expect(html('zulip.com\nchat.zulip.org')).toBe(`<p>${web('zulip.com')}<br>\n${web('chat.zulip.org')}</p>`);
      expect(html('- zulip.com\n- > x.org')).toBe(`<ul>\n<li>${web('zulip.com')}</li>\n<li>\n<blockquote>\n<p>${web('x.org')}</p>\n</blockquote>\n</li>\n</ul>`);
    });

    it('given a domain with non-ASCII letters, when rendered, then the href keeps them as typed', () =>
      expect(html('bücher.de/ä?x=ü')).toBe(`<p>${web('bücher.de/ä?x=ü')}</p>`));

    it('given a quote inside what would be a path, when rendered, then nothing links (Zulip ends paths at a quote)', () =>
      expect(html('zulip.com/a?b="c"')).toBe('<p>zulip.com/a?b=&quot;c&quot;</p>'));

    it('given a bare domain, when rendered, then the message has a link (has_link), and an image when it names one', () => {
      expect(render('see zulip.com')).toMatchObject({ hasLink: true, hasImage: false });
      expect(render('zulip.com/logo.png')).toMatchObject({ hasLink: true, hasImage: true });
      expect(render('zulip dot com')).toMatchObject({ hasLink: false });
    });
  });

  describe('e-mail addresses', () => {
    const mail = (address: string) => a(`mailto:${address}`, address);

    it.each([
      ['a@b.com', `<p>${mail('a@b.com')}</p>`],
      ['<a@b.com>', `<p>&lt;${mail('a@b.com')}&gt;</p>`],
      ['write to first.last@zulip.co.uk, please', `<p>write to ${mail('first.last@zulip.co.uk')}, please</p>`],
      ['(x-y@example.org)', `<p>(${mail('x-y@example.org')})</p>`],
    ])('given an address, when rendered, then it links to mailto: %s', (content, expected) => expect(html(content)).toBe(expected));

    it.each([['a@b.com/foo'], ['@b.com'], ['a@b'], ['`a@b.com`']])('given what Zulip does not take for an address, when rendered, then no link: %s', (content) =>
      expect(html(content)).not.toContain('<a'));

    it('given an address with a scheme, when rendered, then linkify-it links it as before', () =>
      expect(html('mailto:a@b.com')).toBe(`<p>${a('mailto:a@b.com', 'mailto:a@b.com')}</p>`));
  });

  it('given <…> around a URL, when rendered, then the brackets stay text as in Zulip (no CommonMark autolinks)', () =>
    expect(html('<https://zulip.com>')).toBe(`<p>&lt;${a('https://zulip.com', 'https://zulip.com')}&gt;</p>`));

  it('given a long or pathological text, when rendered, then the search stays fast', () => {
    const inputs = [
      `zulip.com/${'('.repeat(5000)}`,
      `zulip.com/${'(a'.repeat(2500)}*`,
      `${'a.'.repeat(5000)}*`,
      `${', a.b'.repeat(2000)}*`,
      `${'a@'.repeat(3000)}.`,
      `x ${'a.b-'.repeat(2500)}`,
    ];
    for (const content of inputs) {
      const started = process.hrtime.bigint();
      renderMessage(content, context);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      expect({ content: content.slice(0, 20), fast: ms < 500 }).toEqual({ content: content.slice(0, 20), fast: true });
    }
  });
});

describe('possibleReferences', () => {
  it('finds names, ids, channel names and wildcards, lower-cased', () =>
    expect(possibleReferences('@**King Hamlet** @_**|12** @**all** #**Denmark>x** #**design team**')).toEqual({
      names: ['king hamlet', 'all'],
      ids: [12],
      channelNames: ['denmark', 'design team'],
      wildcards: true,
      groupNames: [],
    }));

  describe('user group mentions', () => {
    const withGroups: RenderContext = { ...context, groups: [{ id: 1000001, name: 'support', memberIds: [10, 11] }, { id: 1000002, name: 'a&b', memberIds: [13] }] };

    it('renders @*group* as Zulip does and flags its members', () => {
      const rendered = renderMessage('hey @*Support* can you help?', withGroups);
      expect(rendered.html).toBe('<p>hey <span class="user-group-mention" data-user-group-id="1000001">@support</span> can you help?</p>');
      expect(rendered.mentionedGroupIds).toEqual([1000001]);
      expect(rendered.mentionedUserIds).toEqual([10, 11]);
    });

    it('renders a silent @_*group* without flagging anyone', () => {
      const rendered = renderMessage('cc @_*support*', withGroups);
      expect(rendered.html).toBe('<p>cc <span class="user-group-mention silent" data-user-group-id="1000001">support</span></p>');
      expect(rendered.mentionedGroupIds).toEqual([]);
      expect(rendered.mentionedUserIds).toEqual([]);
    });

    it('leaves unknown groups and code as typed, escapes names, and adds user mentions to group members', () => {
      expect(html('@*nobody here*')).toBe('<p>@<em>nobody here</em></p>');
      expect(renderMessage('`@*support*`', withGroups).html).toBe('<p><code>@*support*</code></p>');
      expect(renderMessage('@*a&b*', withGroups).html).toBe('<p><span class="user-group-mention" data-user-group-id="1000002">@a&amp;b</span></p>');
      expect(renderMessage('@*support* @**Twin|13**', withGroups).mentionedUserIds).toEqual([10, 11, 13]);
    });

    it('renders a deactivated group silently and a system group by its display name', () => {
      const rendered = renderMessage('@*old* @*role:members*', { ...context, groups: [{ id: 7, name: 'old', memberIds: [10], deactivated: true }, { id: 5, name: 'role:members', displayName: 'Members', memberIds: [10, 11] }] });
      expect(rendered.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="7">old</span> <span class="user-group-mention" data-user-group-id="5">@Members</span></p>');
      expect(rendered.mentionedGroupIds).toEqual([5]);
    });

    it('lists group names among the possible references', () =>
      expect(possibleReferences('@*Support* and @_*ops team* but not @**King Hamlet**').groupNames).toEqual(['support', 'ops team']));
  });
});

describe('renderMessage with linkifiers', () => {
  const linkifiers = [
    { id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://trac.example.com/ticket/{id}' },
    { id: 2, pattern: 'ZUL-(?P<id>\\d+)', urlTemplate: 'https://z.test/{id}' },
  ];
  const linked = (content: string) => renderMessage(content, { ...context, linkifiers });

  it('links matches in text, like every other link', () => {
    const result = linked('see #123 and **ZUL-4**');
    expect(result.html).toBe(
      '<p>see <a href="https://trac.example.com/ticket/123" target="_blank" rel="noopener noreferrer">#123</a> and '
        + '<strong><a href="https://z.test/4" target="_blank" rel="noopener noreferrer">ZUL-4</a></strong></p>',
    );
    // Zulip's has_link comes from the raw content (http://, https://, /user_uploads): not from linkifiers.
    expect(result.hasLink).toBe(false);
    expect(linked('#1 https://a.test').hasLink).toBe(true);
  });

  it('does not link inside code spans, code blocks or existing links', () => {
    expect(linked('`#123`').html).toBe('<p><code>#123</code></p>');
    expect(linked('```\n#123\n```').html).not.toContain('<a');
    expect(linked('[#123](https://other.test/)').html).toBe('<p><a href="https://other.test/" target="_blank" rel="noopener noreferrer">#123</a></p>');
  });

  it('renders as before without linkifiers', () => expect(html('see #123')).toBe('<p>see #123</p>'));

  it('does not link a URL with a scheme the renderer refuses', () =>
    expect(renderMessage('x-1', { ...context, linkifiers: [{ id: 3, pattern: 'x-(?P<id>\\d)', urlTemplate: 'javascript:alert({id})' }] }).html).toBe('<p>x-1</p>'));
});

describe('the Markdown fast paths (createMarkdown) change no output', () => {
  const plain = createMarkdown(false);
  const fast = createMarkdown(true);
  // A fixed seed: a failure names the input, and reruns see the same inputs.
  let seed = 23;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

  it('normalizeLink returns what markdown-it returns, for random URL-like strings', () => {
    const starts = ['https://', 'http://', 'HTTPS://', 'ftp://', 'mailto:', '//', '', 'javascript:', 'https://user@', 'http://xn--'];
    const hosts = ['example.com', 'a', 'a-b.c', 'A.com', 'ex_ample.com', 'bücher.de', '127.0.0.1', '[::1]', 'a.', '-a.com', 'a..b', ''];
    const plainChars = [...'aZ09-._~/?#=&+,;!*'];
    const otherChars = [...':@%()\'"<> \u00e9\u4e2d\\[]|{}^`$\t'];
    let unchanged = 0;
    for (let i = 0; i < 20000; i++) {
      let tail = '';
      const length = Math.floor(random() * 10);
      for (let j = 0; j < length; j++) tail += pick(random() < 0.9 ? plainChars : otherChars);
      const port = random() < 0.2 ? `:${Math.floor(random() * 99999)}` : '';
      const url = pick(starts) + pick(hosts) + port + (random() < 0.8 ? pick(['/', '?', '#', '']) : '') + tail;
      expect([url, fast.normalizeLink(url)]).toEqual([url, plain.normalizeLink(url)]);
      if (plain.normalizeLink(url) === url) unchanged++;
    }
    // Both sides of the shortcut are exercised: many URLs markdown-it keeps as they are, many it changes.
    expect(unchanged).toBeGreaterThan(2000);
    expect(unchanged).toBeLessThan(18000);
  });

  it('renders random Markdown exactly as the plain parser does', () => {
    const pieces = [
      'word', ' ', '\n', '\n\n', '**', '_', '*', '`', '```\n', '> ', '- ', '1. ', '# ', '[', ']', '(', ')', '<', '>', '&', '\\',
      'https://example.com/a?b=c#d', 'http://x.test', 'www.example.com', 'example.com', 'a@b.com', 'mailto:a@b.com', '//x.test/y',
      'ftp://f.test', 'HTTPS://Ex.COM/', 'https://bücher.de/ä', 'javascript:alert(1)', ':', '/', '@', '@**King Hamlet**', '#**Denmark**',
      ':smile:', '[link](https://example.com)', '<https://auto.test>', '[x](javascript:y)', '~~', '|', '---', '#123', 'ZUL-4',
    ];
    const linkifiers = [{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://trac.example.com/ticket/{id}' }];
    for (let i = 0; i < 5000; i++) {
      let content = '';
      const length = 1 + Math.floor(random() * 16);
      for (let j = 0; j < length; j++) content += pick(pieces);
      const withLinkifiers = { ...context, linkifiers: random() < 0.3 ? linkifiers : [] };
      expect([content, renderMessage(content, withLinkifiers)]).toEqual([content, renderMessage(content, withLinkifiers, plain)]);
      expect([content, renderMessage(content, withLinkifiers, fast)]).toEqual([content, renderMessage(content, withLinkifiers, plain)]);
    }
  });

  it('links bare domains and addresses exactly as the plain parser does, in short random texts', () => {
    // Bare domains and addresses (Zulip's AutoLink, searched only in texts with a "."): labels, a TLD
    // or a file extension, maybe a path, an address's "@", next to punctuation and Markdown.
    const labels = ['zulip', 'www', 'a', 'x-y', 'ü', '_', 'ucl.ac', '1'];
    const ends = ['com', 'org', 'uk', 'io', 'co', 'md', 'py', 'txt', 'COM', 'xn--p1ai', '9', '_x', '-x', 'ü', ''];
    const domain = () =>
      `${pick(['', '', ' ', '(', '"', ':', ',', '<', '*', '`', '@', 'a@'])}${pick(labels)}.${pick(ends)}` +
      `${pick(['', '', '/', '/p', '/(a)', '/a(b', '?q=1', '.', '..', '@b.com'])}${pick(['', '', ' ', '.', ')', '!', '"', "'s", '>', '*', '`', '-'])}`;
    // Few pieces, so that a text token often holds one domain alone (a wrong shortcut shows).
    const around = ['', ' ', '\n', '**', '`', 'word', '. ', 'e.g. '];
    let linked = 0;
    for (let i = 0; i < 5000; i++) {
      let content = '';
      const length = 1 + Math.floor(random() * 3);
      for (let j = 0; j < length; j++) content += pick(around) + domain();
      const expected = renderMessage(content, context, plain);
      expect([content, renderMessage(content, context, fast)]).toEqual([content, expected]);
      if (expected.hasLink) linked++;
    }
    // Both outcomes are exercised.
    expect(linked).toBeGreaterThan(1000);
    expect(linked).toBeLessThan(4000);
  });

  it('takes the fast path for the links most messages hold', () => {
    expect(renderMessage('A message under **sustained** load, with a [link](https://example.com).', context).html).toBe(
      '<p>A message under <strong>sustained</strong> load, with a <a href="https://example.com" target="_blank" rel="noopener noreferrer">link</a>.</p>',
    );
  });
});
