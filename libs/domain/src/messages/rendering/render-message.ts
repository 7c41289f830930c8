import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../text.rules';
import { chatSyntax, type ChatSyntaxEnv, type LinkableChannel, type MentionableGroup, type MentionableUser } from './chat-syntax';
import { emojiCode } from './emoji';
import { compileLinkifiers, type CompiledLinkifier, type LinkifierFacts, linkifyText, mayMatch } from '../../linkifiers/linkify';
import { encodeChannel, hashUtilEncode } from './url-encoding';
import { findWebLinks, mayHoldWebLink } from '../../linkifiers/web-links';

export type { LinkableChannel, MentionableGroup, MentionableUser } from './chat-syntax';

/** What the renderer may resolve: the users and channels the content could name. */
export type RenderContext = {
  users: MentionableUser[];
  channels: LinkableChannel[];
  emptyTopicDisplayName: string;
  /** The organization's linkifiers, in order (absent: none). */
  linkifiers?: LinkifierFacts[];

  /** The user groups the content could mention (none: `@*…*` stays text). */
  groups?: MentionableGroup[];
};

export type RenderedMessage = {
  html: string;
  /**
   * Users mentioned by name (not silently, not deactivated), and the members of the groups
   * mentioned (not silently), as build_message_send_dict adds them to mentions_user_ids.
   */
  mentionedUserIds: number[];
  /** Groups mentioned, not silently (rendering_result.mentions_user_group_ids). */
  mentionedGroupIds: number[];
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
};

/** Schemes a link may use (zerver/lib/markdown sanitize_url); anything without a scheme is relative. */
const SAFE_SCHEME = /^(https?|ftp|mailto):/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const IMAGE_URL = /\.(png|jpe?g|gif|webp|bmp)(\?.*)?$/i;

/**
 * The configured parser. `fastPaths` (on in production) adds shortcuts that skip work whose
 * result is known without doing it (addFastPaths); off, the parser is the plain configuration,
 * which the equivalence tests compare against.
 */
export function createMarkdown(fastPaths = true): MarkdownIt.MarkdownIt {
  // Raw HTML never passes through (html: false escapes it); single newlines are <br> (Zulip's nl2br).
  const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });
  // linkify-it links what has a scheme; bare domains and e-mail addresses are Zulip's own rule (web-links.ts).
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  // Zulip has no reference-style links, setext headings or inline images in messages, and no
  // <…> autolinks (its AutoLink links the address inside and leaves the brackets as text).
  md.disable(['reference', 'lheading', 'image', 'html_block', 'html_inline', 'autolink']);
  md.validateLink = (url) => {
    const trimmed = url.trim();
    // Control characters or whitespace inside a scheme are how javascript: URLs are disguised.
    if (/[\u0000-\u001f\u007f]/.test(trimmed)) return false;
    return SAFE_SCHEME.test(trimmed) || !HAS_SCHEME.test(trimmed);
  };
  chatSyntax(md);
  md.core.ruler.after('linkify', 'zulip_web_links', (state) => linkWebLinks(state, fastPaths));
  md.core.ruler.push('zulip_linkifiers', applyLinkifiers);
  if (fastPaths) addFastPaths(md);
  const rules = md.renderer.rules;
  rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
    const href = String(token.attrGet('href') ?? '');
    const found = (env as ChatSyntaxEnv & { links: string[] }).links;
    // Zulip's has_link looks at the raw content (content_has_link): a linkifier's link is not one.
    if (token.markup !== 'linkifier') found.push(href);
    return self.renderToken(tokens, idx, options);
  };
  const codeBlock = (content: string, language: string) => {
    const lang = language ? ` data-code-language="${escapeHtml(language)}"` : '';
    return `<div class="codehilite"${lang}><pre><span></span><code>${escapeHtml(content)}</code></pre></div>\n`;
  };
  rules.fence = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    const language = token.info.trim().split(/\s+/)[0] ?? '';
    // ```quote renders its content as a quotation (Zulip's fenced_code "quote" and "quoted").
    if (language === 'quote' || language === 'quoted') return `<blockquote>\n${md.render(token.content, env)}</blockquote>\n`;
    return codeBlock(token.content, language);
  };
  rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, '');
  rules.zulip_mention = (tokens, idx) => {
    const m = tokens[idx].meta as { name: string; userId: number | null; streamWildcard: boolean; topicWildcard: boolean; silent: boolean };
    let cls = m.topicWildcard ? 'topic-mention' : m.streamWildcard ? 'user-mention channel-wildcard-mention' : 'user-mention';
    if (m.silent) cls += ' silent';
    const userId = m.streamWildcard ? '*' : m.userId !== null ? String(m.userId) : null;
    const dataUserId = userId === null ? '' : ` data-user-id="${userId}"`;
    return `<span class="${cls}"${dataUserId}>${m.silent ? '' : '@'}${escapeHtml(m.name)}</span>`;
  };
  rules.zulip_group_mention = (tokens, idx) => {
    const m = tokens[idx].meta as { groupId: number; name: string; silent: boolean };
    const cls = m.silent ? 'user-group-mention silent' : 'user-group-mention';
    return `<span class="${cls}" data-user-group-id="${m.groupId}">${m.silent ? '' : '@'}${escapeHtml(m.name)}</span>`;
  };
  rules.zulip_channel_link = (tokens, idx, _options, env) => {
    const m = tokens[idx].meta as { channelId: number; name: string; topic: string | null };
    const channelUrl = `/#narrow/channel/${encodeChannel(m.channelId, m.name)}`;
    if (m.topic === null) {
      return `<a class="stream" data-stream-id="${m.channelId}" href="${escapeHtml(channelUrl)}">#${escapeHtml(m.name)}</a>`;
    }
    const href = `${channelUrl}/topic/${hashUtilEncode(m.topic)}`;
    const topicText = m.topic === '' ? `<em>${escapeHtml((env as ChatSyntaxEnv).emptyTopicDisplayName)}</em>` : escapeHtml(m.topic);
    return `<a class="stream-topic" data-stream-id="${m.channelId}" href="${escapeHtml(href)}">#${escapeHtml(m.name)} &gt; ${topicText}</a>`;
  };
  rules.zulip_emoji = (tokens, idx) => {
    const name = (tokens[idx].meta as { name: string }).name;
    const title = escapeHtml(name.replace(/_/g, ' '));
    return `<span aria-label="${title}" class="emoji emoji-${emojiCode(name)}" role="img" title="${title}">:${escapeHtml(name)}:</span>`;
  };
  return md;
}

type Token = ReturnType<MarkdownIt.MarkdownIt['parse']>[number];

/**
 * A link destination normalizeLink leaves unchanged: http(s), a lower-case ASCII host, an
 * optional port, then only characters that mdurl.encode keeps and that mdurl.parse cannot read as
 * another part of the URL. mdurl.format(mdurl.parse(url)) gives it back as it was, punycode has no
 * non-ASCII label to convert and mdurl.encode nothing to escape (the equivalence test in
 * render-message.spec.ts checks this against markdown-it's own normalizeLink on random URLs).
 */
const PLAIN_URL = /^https?:\/\/[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::[0-9]{1,5})?(?:[/?#][A-Za-z0-9\-._~/?#=&+,;!*]*)?$/;

/** Characters linkify-it's test() needs in a text: a scheme ("http:", "//", "mailto:"…); its fuzzy links and e-mails are off. */
const MAY_LINKIFY = /[:/]/;

/**
 * Shortcuts that change no output (issue #23: the Markdown parse was most of a send's checks):
 * - normalizeLink returns a plain http(s) URL as it is, without parsing, punycode and re-encoding it;
 * - the core linkify rule runs only when a text token holds a character a link with a scheme
 *   needs: otherwise it tests the whole paragraph (a Markdown link's URL included, with
 *   linkify-it's long host expression) only to find nothing to link in its text tokens;
 * - Zulip's bare domains and e-mail addresses (linkWebLinks) are searched for only in text tokens
 *   with a "." before a letter, digit, "_" or "-" (mayHoldWebLink: every domain and address has
 *   one, a sentence's full stop does not): an indexOf per "." in the text token.
 */
function addFastPaths(md: MarkdownIt.MarkdownIt): void {
  const normalizeLink = md.normalizeLink.bind(md);
  md.normalizeLink = (url: string) => (PLAIN_URL.test(url) ? url : normalizeLink(url));
  const rules = (md.core.ruler as unknown as { __rules__: { name: string; fn: (state: MarkdownIt.StateCore) => void }[] }).__rules__;
  const linkify = rules.find((rule) => rule.name === 'linkify')?.fn;
  if (!linkify) throw new Error('markdown-it has no core linkify rule');
  md.core.ruler.at('linkify', (state: MarkdownIt.StateCore) => {
    if (state.tokens.some((block) => block.children?.some((token) => token.type === 'text' && MAY_LINKIFY.test(token.content)))) linkify(state);
  });
}

/**
 * The source character next to a text token, as Zulip's AutoLink sees it: it runs before emphasis
 * (so `*`, `_`, `~` are still there) and after code spans, mentions, channel links and Markdown
 * links (which it sees as placeholders, neither whitespace nor punctuation it accepts).
 */
function edgeChar(token: Token | undefined, side: 'before' | 'after'): string {
  if (token === undefined) return '';
  const pick = (s: string) => (side === 'before' ? s.slice(-1) : s.slice(0, 1));
  switch (token.type) {
    case 'text':
      return pick(token.content);
    case 'text_special': // an escape or an entity: Zulip sees the characters as typed
    case 'strong_open':
    case 'strong_close':
    case 'em_open':
    case 'em_close':
    case 's_open':
    case 's_close':
      return pick(token.markup);
    case 'softbreak':
    case 'hardbreak':
      return '\n';
    case 'zulip_emoji': // emoji come after links in Zulip: `:name:` is still text
      return ':';
    default:
      return '\u0002';
  }
}

/** A link found in a text token: its place in the token's content, its text and its href. */
type TextLink = { start: number; end: number; text: string; href: string };

/**
 * Replaces the links `find` reports in the text tokens outside links (never inside code, which
 * is not a text token, nor inside a Markdown link or an earlier autolink) with link tokens marked
 * `markup` (and `info`, and `closeMarkup` on the closing token). The shared step of Zulip's
 * AutoLink and LinkifierPattern; a block's children are copied only once it has a link.
 */
function linkTextTokens(
  state: MarkdownIt.StateCore,
  find: (tokens: Token[], index: number) => TextLink[],
  mark: { markup: string; info?: string; closeMarkup?: string },
): void {
  for (const block of state.tokens) {
    const tokens = block.children;
    if (block.type !== 'inline' || !tokens) continue;
    let children: Token[] | undefined;
    let linkDepth = 0;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.type === 'link_open') linkDepth++;
      else if (token.type === 'link_close') linkDepth--;
      const links = token.type === 'text' && linkDepth === 0 ? find(tokens, i) : [];
      if (links.length === 0) {
        children?.push(token);
        continue;
      }
      children ??= tokens.slice(0, i);
      let pos = 0;
      const text = (content: string) => {
        const t = new state.Token('text', '', 0);
        t.content = content;
        children!.push(t);
      };
      for (const link of links) {
        if (link.start > pos) text(token.content.slice(pos, link.start));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [['href', link.href]];
        open.markup = mark.markup;
        if (mark.info !== undefined) open.info = mark.info;
        children.push(open);
        text(link.text);
        const close = new state.Token('link_close', 'a', -1);
        if (mark.closeMarkup !== undefined) close.markup = mark.closeMarkup;
        if (mark.info !== undefined) close.info = mark.info;
        children.push(close);
        pos = link.end;
      }
      if (pos < token.content.length) text(token.content.slice(pos));
    }
    if (children) block.children = children;
  }
}

/**
 * Zulip's AutoLink for links without a scheme: bare domains (`zulip.com`, href `http://zulip.com`)
 * and e-mail addresses (href `mailto:…`) in text tokens, never inside code or a link. `fastPath`
 * skips the search in a text that cannot hold one (mayHoldWebLink).
 */
function linkWebLinks(state: MarkdownIt.StateCore, fastPath: boolean): void {
  linkTextTokens(
    state,
    (tokens, i) =>
      fastPath && !mayHoldWebLink(tokens[i].content) ? [] : findWebLinks(tokens[i].content, edgeChar(tokens[i - 1], 'before'), edgeChar(tokens[i + 1], 'after')),
    { markup: 'linkify', info: 'auto', closeMarkup: 'linkify' },
  );
}

/**
 * Zulip's LinkifierPattern: the organization's linkifiers turn their matches in text into links,
 * never inside code (code spans and blocks are not text tokens) or inside links (Markdown links,
 * autolinks, channel links), each linkifier in order (earlier ones win an overlap).
 */
function applyLinkifiers(state: MarkdownIt.StateCore): void {
  const all = (state.env as { linkifiers?: CompiledLinkifier[] }).linkifiers;
  if (!all || all.length === 0) return;
  // Most messages match no linkifier: probe each once against all the text, then search the
  // text tokens only with the linkifiers that may match.
  const texts: string[] = [];
  for (const block of state.tokens) for (const token of block.children ?? []) if (token.type === 'text') texts.push(token.content);
  const joined = texts.join('\n');
  const linkifiers = all.filter((l) => mayMatch(l, joined));
  if (linkifiers.length === 0) return;
  linkTextTokens(
    state,
    (tokens, i) =>
      linkifyText(tokens[i].content, linkifiers)
        .filter((m) => state.md.validateLink(m.url))
        .map((m) => ({ start: m.start, end: m.end, text: m.text, href: m.url })),
    { markup: 'linkifier' },
  );
}

let shared: MarkdownIt.MarkdownIt | undefined;
const markdown = () => (shared ??= createMarkdown());

/**
 * Zulip's rendering of a message (zerver/lib/markdown render_message_markdown), pure: the raw
 * Markdown and what it may mention in, the HTML and the mentions it contains out. The HTML is
 * safe to insert: raw HTML in the source is escaped, link schemes are allow-listed, and every
 * attribute this renderer writes is escaped. `parser` is for tests (createMarkdown(false)).
 */
export function renderMessage(content: string, context: RenderContext, parser: MarkdownIt.MarkdownIt = markdown()): RenderedMessage {
  const usersByName = new Map<string, MentionableUser>();
  // Lower ids win a name two users share; @**Name|id** disambiguates.
  for (const user of [...context.users].sort((a, b) => b.id - a.id)) usersByName.set(user.fullName.toLowerCase(), user);
  const env: ChatSyntaxEnv & { links: string[]; linkifiers: CompiledLinkifier[] } = {
    usersById: new Map(context.users.map((u) => [u.id, u])),
    usersByName,
    channelsByName: new Map(context.channels.map((c) => [c.name.toLowerCase(), c])),
    groupsByName: new Map((context.groups ?? []).map((g) => [g.name.toLowerCase(), g])),
    emptyTopicDisplayName: context.emptyTopicDisplayName,
    linkifiers: context.linkifiers ? compileLinkifiers(context.linkifiers) : [],
    found: { mentionedUserIds: new Set(), mentionedGroupIds: new Set(), streamWildcard: false, topicWildcard: false },
    links: [],
  };
  const html = parser.render(content, env).replace(/\n$/, '');
  const mentioned = new Set(env.found.mentionedUserIds);
  const groupsById = new Map((context.groups ?? []).map((g) => [g.id, g]));
  for (const groupId of env.found.mentionedGroupIds) for (const userId of groupsById.get(groupId)?.memberIds ?? []) mentioned.add(userId);
  return {
    html,
    mentionedUserIds: [...mentioned].sort((a, b) => a - b),
    mentionedGroupIds: [...env.found.mentionedGroupIds].sort((a, b) => a - b),
    streamWildcard: env.found.streamWildcard,
    topicWildcard: env.found.topicWildcard,
    hasLink: env.links.length > 0,
    hasImage: env.links.some((href) => IMAGE_URL.test(href)),
    hasAttachment: env.links.some((href) => href.includes('/user_uploads/')),
  };
}

/**
 * Every name and id the content might mention or link to (a superset: code blocks are not
 * excluded), so that a caller can look up only those (zerver/lib/mention.py possible_mentions).
 */
export function possibleReferences(content: string): { names: string[]; ids: number[]; channelNames: string[]; wildcards: boolean; groupNames: string[] } {
  // Every reference starts with "@" or "#": most messages hold neither, and need no search.
  if (!content.includes('@') && !content.includes('#')) return { names: [], ids: [], channelNames: [], wildcards: false, groupNames: [] };
  const names = new Set<string>();
  const ids = new Set<number>();
  let wildcards = false;
  for (const match of content.matchAll(/@_?\*\*([^*]+)\*\*/g)) {
    const name = match[1];
    if (/^(all|everyone|stream|channel|topic)$/.test(name)) wildcards = true;
    const idSyntax = /^(.+)?\|(\d+)$/.exec(name);
    if (idSyntax) ids.add(Number(idSyntax[2]));
    else names.add(name.toLowerCase());
  }
  const channelNames = new Set<string>();
  for (const match of content.matchAll(/#\*\*([^*>]+)(?:>[^*]*)?\*\*/g)) channelNames.add(match[1].toLowerCase());
  const groupNames = new Set<string>();
  for (const match of content.matchAll(/@_?\*([^*]+)\*/g)) groupNames.add(match[1].toLowerCase());
  return { names: [...names], ids: [...ids], channelNames: [...channelNames], wildcards, groupNames: [...groupNames] };
}
