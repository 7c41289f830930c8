import { escapeHtml } from './text.rules';

/**
 * Zulip's search operand (zerver/lib/narrow.py _by_search_tsearch): the words of every `search`
 * term, stemmed (English), case- and accent-insensitive, stop words left out, all required, in the
 * topic or the content; `"quoted phrases"` also as phrases. This file is the one definition of
 * what a word is and what it stems to, shared by the query, the MongoDB index and the
 * highlighting; SQLite's FTS5 `porter unicode61 remove_diacritics 2` tokenizer does the same for
 * the embedded index (a differential test pins the two together).
 */

/** Zulip's stop words (puppet/zulip/files/postgresql/zulip_english.stop): never searched for, never highlighted. */
export const SEARCH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself ' +
    'they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having ' +
    'do does did doing a an the and but if or because as until while of at by for with about against between into through during before ' +
    'after above below to from up down in out on off over under again further then once here there when where why how all any both each ' +
    'few more most other some such no nor not only own same so than too very s t can will just don should now ' +
    'b c d e f g h j k l m n o p q r u v w x y z'
  ).split(' '),
);

/** A word: a run of letters, digits or private-use characters (what FTS5's unicode61 tokenizer keeps). */
const WORD = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/** Lower-cased, diacritics removed ("Café" → "cafe"), as unicode61 with remove_diacritics 2 folds a token. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Text with no character beyond ASCII (most messages), whose words need no Unicode folding. */
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

/** The words of a text, folded, in order. */
export function searchWords(text: string): string[] {
  // The same words as below, without the Unicode classes and normalization: in ASCII the word
  // characters are letters and digits, and folding is lower-casing (search runs this per message).
  if (ASCII_ONLY.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  const words: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = foldWord(match[0]);
    if (word !== '') words.push(word);
  }
  return words;
}

export type SearchQuery = {
  /** Folded, unstemmed words that must all occur (stop words left out, each once). */
  words: string[];
  /** Each quoted phrase's folded words (stop words kept), which must occur in this order. */
  phrases: string[][];
};

/**
 * The search operands of a narrow, joined as Zulip joins them: every word outside or inside quotes
 * is required; a quoted part is also a phrase. A query of stop words only has no words (and, as
 * in Zulip, where PostgreSQL's empty tsquery matches nothing, finds nothing).
 */
export function parseSearchQuery(operand: string): SearchQuery {
  const words: string[] = [];
  const phrases: string[][] = [];
  for (const part of operand.match(/"[^"]+"|\S+/g) ?? []) {
    const quoted = part.length > 1 && part.startsWith('"') && part.endsWith('"');
    const partWords = searchWords(part);
    if (quoted && partWords.length > 1) phrases.push(partWords);
    for (const word of partWords) if (!SEARCH_STOP_WORDS.has(word) && !words.includes(word)) words.push(word);
  }
  return { words, phrases };
}

/** The stems a search looks for (what highlighting marks). */
export function searchStems(query: SearchQuery): Set<string> {
  return new Set(query.words.map(porterStem));
}

/** The distinct stems of a text's words, stop words left out (the MongoDB word index). */
export function indexStems(text: string): string[] {
  return [...new Set(searchWords(text).filter((w) => !SEARCH_STOP_WORDS.has(w)).map(porterStem))];
}

/** A text's words as stems in order, space-separated with a space at each end (phrases match as " a b "). */
export function stemSequence(text: string): string {
  const words = searchWords(text).map(porterStem);
  return words.length === 0 ? '' : ` ${words.join(' ')} `;
}

/** A phrase as it appears in a stemSequence. */
export function phraseSequence(phrase: string[]): string {
  return ` ${phrase.map(porterStem).join(' ')} `;
}

const HIGHLIGHT_START = '<span class="highlight">';
const HIGHLIGHT_STOP = '</span>';

/**
 * Zulip's highlight_string over ts_headline's matches: every word of the HTML whose stem is
 * searched for is wrapped in `<span class="highlight">`, never inside a tag (an attribute
 * value) and never inside a character reference (`&amp;`).
 */
export function highlightHtml(html: string, stems: ReadonlySet<string>): string {
  if (stems.size === 0) return html;
  let result = '';
  let pos = 0;
  // Tags and character references are skipped whole; words outside them are candidates.
  for (const match of html.matchAll(/<[^>]*>?|&#?\w+;|[\p{L}\p{N}\p{Co}\p{M}]+/gu)) {
    const token = match[0];
    if (token.startsWith('<') || token.startsWith('&')) continue;
    if (!stems.has(porterStem(foldWord(token)))) continue;
    const at = match.index;
    result += `${html.slice(pos, at)}${HIGHLIGHT_START}${token}${HIGHLIGHT_STOP}`;
    pos = at + token.length;
  }
  return result + html.slice(pos);
}

// Porter's stemmer (M.F. Porter, 1980, with the departures of his reference C implementation that
// SQLite's FTS5 porter tokenizer also makes: "bli" → "ble", "logi" → "log"). Words shorter than 3
// characters or longer than 64 are left alone, as FTS5 leaves them.

const isVowelAt = (w: string, i: number): boolean => {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return true;
  // y is a vowel after a consonant.
  return c === 'y' && i > 0 && !isVowelAt(w, i - 1);
};

/** Porter's m: the number of vowel-consonant sequences in the first `n` characters. */
function measure(w: string, n: number): number {
  let m = 0;
  let i = 0;
  while (i < n && !isVowelAt(w, i)) i++;
  while (i < n) {
    while (i < n && isVowelAt(w, i)) i++;
    if (i >= n) break;
    m++;
    while (i < n && !isVowelAt(w, i)) i++;
  }
  return m;
}

const hasVowel = (w: string, n: number): boolean => {
  for (let i = 0; i < n; i++) if (isVowelAt(w, i)) return true;
  return false;
};

/** *o: the first `n` characters end consonant-vowel-consonant, the last not w, x or y. */
const endsCvc = (w: string, n: number): boolean =>
  n >= 3 && !isVowelAt(w, n - 1) && isVowelAt(w, n - 2) && !isVowelAt(w, n - 3) && !'wxy'.includes(w[n - 1]);

type Rule = [suffix: string, replacement: string];

/** The first (longest) rule whose suffix ends the word; applied when its stem's measure is over `min`. */
function applyRules(w: string, rules: Rule[], min: number): string {
  for (const [suffix, replacement] of rules) {
    if (w.length <= suffix.length || !w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    // Step 4's "ion" goes only after s or t.
    const allowed = suffix !== 'ion' || stem.endsWith('s') || stem.endsWith('t');
    if (allowed && measure(stem, stem.length) > min) return stem + replacement;
    return w;
  }
  return w;
}

const STEP2: Rule[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['logi', 'log'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'],
  ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
].sort((a, b) => b[0].length - a[0].length) as Rule[];
const STEP3: Rule[] = [['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', '']];
const STEP4: Rule[] = [
  ['al', ''], ['ance', ''], ['ence', ''], ['er', ''], ['ic', ''], ['able', ''], ['ible', ''], ['ant', ''], ['ement', ''], ['ment', ''],
  ['ent', ''], ['ion', ''], ['ou', ''], ['ism', ''], ['ate', ''], ['iti', ''], ['ous', ''], ['ive', ''], ['ize', ''],
].sort((a, b) => b[0].length - a[0].length) as Rule[];

export function porterStem(word: string): string {
  if (word.length < 3 || word.length > 64) return word;
  let w = word;
  // Step 1a.
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  // Step 1b.
  let cleanup = false;
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2);
    cleanup = true;
  } else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3);
    cleanup = true;
  }
  if (cleanup) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else {
      const last = w[w.length - 1];
      if (w.length >= 2 && last === w[w.length - 2] && !isVowelAt(w, w.length - 1) && !'lsz'.includes(last)) w = w.slice(0, -1);
      else if (measure(w, w.length) === 1 && endsCvc(w, w.length)) w += 'e';
    }
  }
  // Step 1c.
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = `${w.slice(0, -1)}i`;
  // Steps 2 to 4.
  w = applyRules(w, STEP2, 0);
  w = applyRules(w, STEP3, 0);
  w = applyRules(w, STEP4, 1);
  // Step 5a.
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // Step 5b.
  if (w.endsWith('ll') && measure(w, w.length - 1) > 1) w = w.slice(0, -1);
  return w;
}

/**
 * get_search_fields: a search result's `match_content` (the rendered content) and `match_subject`
 * (the topic, HTML-escaped; "" for a direct message), each with the searched words highlighted.
 */
export function searchMatchFields(renderedContent: string, topic: string, query: SearchQuery | undefined): { match_content: string; match_subject: string } {
  const stems = query ? searchStems(query) : new Set<string>();
  return { match_content: highlightHtml(renderedContent, stems), match_subject: highlightHtml(escapeHtml(topic), stems) };
}
