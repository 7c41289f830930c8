import { enableLinearRegExpFallback } from './linear-regexp';
import { propertyRanges, translateRe2Pattern } from './re2-pattern';
import { expandUrlTemplate } from './url-template';
import { findTopicWebLink } from './web-links';

enableLinearRegExpFallback();

/** A linkifier as rendering needs it (Zulip's LinkifierDict), in the organization's order. */
export type LinkifierFacts = { id: number; pattern: string; urlTemplate: string };

/**
 * `probe` is the pattern alone: most texts hold no match at all, and a pattern that starts with a
 * literal ("PROJ-") is searched for far faster without the boundary groups around it. Only a text
 * the probe matches is searched with `regexp`.
 */
export type CompiledLinkifier = { regexp: RegExp; probe: RegExp; requiredLiterals: string[]; urlTemplate: string };

/** Whether a text may hold a match: every required literal is in it, then the pattern alone matches somewhere. */
export const mayMatch = (linkifier: CompiledLinkifier, text: string): boolean =>
  linkifier.requiredLiterals.every((literal) => text.includes(literal)) && linkifier.probe.test(text);

/** A match in a text: the code-unit range of the linked text and the URL it links to. */
export type LinkifierMatch = { start: number; end: number; text: string; url: string };

const BEFORE = 'linkifier_before_match';
const OUTER = 'linkifier_actual_match';
const AFTER = 'linkifier_after_match';

let letterOrNumber: string | undefined;
/** `[^\pL\pN]` as BMP code-unit ranges (the linear engine takes no `u` flag). */
function notLetterOrNumber(): string {
  if (letterOrNumber === undefined) {
    const ranges = [...propertyRanges('L')!, ...propertyRanges('N')!].sort((a, b) => a[0] - b[0]);
    const hex = (cu: number) => `\\u${cu.toString(16).padStart(4, '0')}`;
    letterOrNumber = ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');
  }
  return `[^${letterOrNumber}]`;
}

/**
 * Zulip's prepare_linkifier_pattern: the pattern matches only after the start, whitespace (with
 * U+0085 and the Z categories) or one of ' " ( , : <, and not before a letter or a digit.
 */
export const prepareLinkifierSource = (translatedSource: string): string =>
  `(?<${BEFORE}>^|[\\s\\u0085'"(,:<])(?<${OUTER}>${translatedSource})(?<${AFTER}>$|${notLetterOrNumber()})`;

/** Compiled linkifiers by pattern, then URL template (two lookups: no key to build per render). */
const compiled = new Map<string, Map<string, CompiledLinkifier | null>>();
let compiledCount = 0;

/** The linkifier compiled for matching (cached by pattern and template); null if it no longer compiles. */
export function compileLinkifier(linkifier: Pick<LinkifierFacts, 'pattern' | 'urlTemplate'>): CompiledLinkifier | null {
  let byTemplate = compiled.get(linkifier.pattern);
  let entry = byTemplate?.get(linkifier.urlTemplate);
  if (entry === undefined) {
    try {
      const { source, requiredLiterals } = translateRe2Pattern(linkifier.pattern);
      entry = { regexp: new RegExp(prepareLinkifierSource(source), 'g'), probe: new RegExp(source), requiredLiterals, urlTemplate: linkifier.urlTemplate };
    } catch {
      entry = null; // Zulip: a pattern re2 cannot compile matches nothing
    }
    if (++compiledCount > 10_000) {
      compiled.clear();
      compiledCount = 1;
      byTemplate = undefined;
    }
    if (!byTemplate) compiled.set(linkifier.pattern, (byTemplate = new Map()));
    byTemplate.set(linkifier.urlTemplate, entry);
  }
  return entry;
}

const compiledLists = new WeakMap<readonly LinkifierFacts[], CompiledLinkifier[]>();

/** An organization's linkifiers compiled, in order, without those that no longer compile (cached per list). */
export function compileLinkifiers(linkifiers: readonly LinkifierFacts[]): CompiledLinkifier[] {
  let list = compiledLists.get(linkifiers);
  if (!list) {
    list = linkifiers.map(compileLinkifier).filter((l): l is CompiledLinkifier => l !== null);
    compiledLists.set(linkifiers, list);
  }
  return list;
}

/** Every match of one linkifier in a text, left to right (Zulip's search loop: the character after a match may start the next). */
export function linkifierMatches(text: string, linkifier: CompiledLinkifier): LinkifierMatch[] {
  const out: LinkifierMatch[] = [];
  const { regexp } = linkifier;
  if (!mayMatch(linkifier, text)) return out;
  regexp.lastIndex = 0;
  for (;;) {
    const m = regexp.exec(text);
    if (!m) break;
    const groups = m.groups!;
    const start = m.index + groups[BEFORE].length;
    const end = start + groups[OUTER].length;
    const values: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(groups)) if (name !== BEFORE && name !== OUTER && name !== AFTER) values[name] = value;
    out.push({ start, end, text: groups[OUTER], url: expandUrlTemplate(linkifier.urlTemplate, values) });
    // Rewind the character after the match so that it can precede the next one; always move on.
    regexp.lastIndex = Math.max(end, m.index + 1);
  }
  return out;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/**
 * The links the linkifiers make in a text, in order of position: each linkifier in turn, a match
 * overlapping a link already made is dropped (earlier linkifiers win, as in Zulip, where a linked
 * text is no longer seen by the later ones).
 */
export function linkifyText(text: string, linkifiers: CompiledLinkifier[]): LinkifierMatch[] {
  const applied: LinkifierMatch[] = [];
  for (const linkifier of linkifiers) {
    for (const match of linkifierMatches(text, linkifier)) {
      if (match.text !== '' && !applied.some((a) => overlaps(a, match))) applied.push(match);
    }
  }
  return applied.sort((a, b) => a.start - b.start);
}

/** zerver/lib/markdown basic_link_splitter: topic_links looks for one raw URL between two of these. */
const LINK_SPLITTER = /[ !;),'"]/;

/**
 * Zulip's topic_links: the linkifier matches in a topic (by linkifier order, then position, an
 * overlapping later one dropped) and the raw URLs in it, as [{text, url}] by position: with an
 * http(s) scheme as written, a bare domain or e-mail address (zulip.com/x, a@b.com) with https://.
 */
export function topicLinks(topic: string, linkifiers: LinkifierFacts[]): { text: string; url: string }[] {
  type Candidate = { start: number; end: number; text: string; url: string };
  const candidates: Candidate[] = [];
  for (const linkifier of linkifiers) {
    const compiledLinkifier = compileLinkifier(linkifier);
    if (compiledLinkifier) candidates.push(...linkifierMatches(topic, compiledLinkifier));
  }
  let pos = 0;
  while (pos < topic.length) {
    const split = LINK_SPLITTER.exec(topic.slice(pos));
    const end = split ? pos + split.index : topic.length;
    // Zulip's candidate starts where the segment does, wherever the link is in it.
    const link = findTopicWebLink(topic.slice(pos, end));
    if (link) candidates.push({ start: pos, end: pos + link.text.length, ...link });
    pos = end + 1;
  }
  const applied: Candidate[] = [];
  for (const candidate of candidates) if (!applied.some((a) => overlaps(a, candidate))) applied.push(candidate);
  return applied.sort((a, b) => a.start - b.start).map(({ text, url }) => ({ text, url }));
}
