import { ianaTlds } from './iana-tlds';

/**
 * Zulip's links without a scheme (zerver/lib/markdown get_web_link_regex, AutoLink, url_to_a,
 * sanitize_url): a bare domain such as `zulip.com`, `www.google.com/foo` or `ucl.ac.uk`, and an
 * e-mail address. Links with a scheme are markdown-it's linkify (linkify-it), as before.
 */

/** list_of_tlds: every IANA TLD but a few file extensions that are more often meant (readme.md, views.py). */
const COMMON_FALSE_POSITIVES = new Set(['java', 'md', 'mov', 'py', 'zip']);
let tlds: Set<string> | undefined;
const tldSet = (): Set<string> => (tlds ??= new Set(ianaTlds().filter((tld) => !COMMON_FALSE_POSITIVES.has(tld))));

/** Python's `\w` on str (letters, digits, underscore in any script) and `[\w-]`. */
const WORD = '[\\p{L}\\p{N}_]';
const LABEL = '[\\p{L}\\p{N}_-]+';

/**
 * The path: up to six levels of balanced parentheses, built as Zulip builds it (nested_paren_chunk);
 * lazy, so that trailing punctuation is left out by the lookahead after the link.
 */
function nestedParenChunk(): string {
  const inner = '[^\\s()"]*';
  const parenGroup = '[^\\s()"]*?(?:\\(%s\\)[^\\s()"]*?)*';
  let chunk = parenGroup;
  for (let i = 0; i < 6; i++) chunk = chunk.replace('%s', parenGroup);
  return chunk.replace('%s', inner);
}

const BEFORE = `(?<![^\\s'"(,:<])`;
const AFTER = `(?=[!:;?),.'">]*(?:$|\\s))`;
const DOMAIN = `((?:${LABEL}\\.)+(${LABEL}))`;
const PATH = `(?:/${nestedParenChunk()})?`;
const EMAIL = `([\\p{L}\\p{N}_.-]+@[\\p{L}\\p{N}_.-]+\\.${WORD}+)`;

/**
 * Zulip's regex without the scheme and bitcoin branches (a message's links with a scheme are
 * linkify-it's). It starts after the start of the text, whitespace or one of ' " ( , : < and ends
 * before optional punctuation then whitespace or the end. Where Zulip lists every TLD in an
 * alternation (`(?:[\w-]+\.)+(?:com|org|…)`), the last label is captured (group 2) and looked up in
 * the set: the same links, since the lookahead after it never lets a TLD end inside a label (the
 * character after it must be "/", punctuation, whitespace or the end).
 */
const WEB_LINK = new RegExp(`${BEFORE}(?:${DOMAIN}${PATH}|${EMAIL})${AFTER}`, 'gu');

/** The same with Zulip's `https?://` branch first (group 1; the domain's last label is group 3), as topic_links uses it. */
const TOPIC_WEB_LINK = new RegExp(`${BEFORE}(?:(?:(https?://[\\p{L}\\p{N}_.:@-]+?)|${DOMAIN})${PATH}|${EMAIL})${AFTER}`, 'gu');

/**
 * Whether `text` may hold a bare domain or an e-mail address: both have a "." right before a
 * letter, a digit or "_" (the TLD, which starts with a letter; an address's last `\.\w+`). A
 * superset, checked with indexOf and a character code per "."; prose, whose dots end sentences,
 * is not searched at all.
 */
export function mayHoldWebLink(text: string): boolean {
  for (let i = text.indexOf('.'); i !== -1 && i + 1 < text.length; i = text.indexOf('.', i + 1)) {
    const c = text.charCodeAt(i + 1);
    // a-z, A-Z, 0-9, "_", or any non-ASCII character (it may be a letter or a digit)
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c >= 128) return true;
  }
  return false;
}

export type WebLink = { start: number; end: number; text: string; href: string };

/**
 * The bare domains and e-mail addresses Zulip links in `text`. `before` and `after` are the source
 * characters around it ('' at the start or end of the paragraph's text): a link must not follow
 * `*` or a code span, nor run into one. A link that would run past `text` is not one here.
 * The href is Zulip's: `http://` before a domain, `mailto:` before an address.
 */
export function findWebLinks(text: string, before = '', after = ''): WebLink[] {
  const links: WebLink[] = [];
  const source = before + text + after;
  const end = before.length + text.length;
  WEB_LINK.lastIndex = before.length;
  for (let m = WEB_LINK.exec(source); m !== null; m = WEB_LINK.exec(source)) {
    const linkEnd = m.index + m[0].length;
    const isDomain = m[2] !== undefined;
    if (linkEnd > end || (isDomain && !tldSet().has(m[2]))) {
      WEB_LINK.lastIndex = m.index + 1;
      continue;
    }
    links.push({ start: m.index - before.length, end: linkEnd - before.length, text: m[0], href: (isDomain ? 'http://' : 'mailto:') + m[0] });
  }
  return links;
}

/**
 * topic_links' raw URL in one segment of a topic (Zulip matches the whole regex anywhere in it): the
 * first link, with a scheme as written, without one `https://` before it (urlsplit, then the
 * scheme replaced: a domain's path stays, an address becomes the host).
 */
export function findTopicWebLink(segment: string): { text: string; url: string } | null {
  TOPIC_WEB_LINK.lastIndex = 0;
  for (let m = TOPIC_WEB_LINK.exec(segment); m !== null; m = TOPIC_WEB_LINK.exec(segment)) {
    if (m[3] !== undefined && !tldSet().has(m[3])) {
      TOPIC_WEB_LINK.lastIndex = m.index + 1;
      continue;
    }
    return { text: m[0], url: m[1] !== undefined ? m[0] : `https://${m[0]}` };
  }
  return null;
}
