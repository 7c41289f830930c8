/**
 * Which users' alert words a message's content contains: Zulip's AlertWordNotificationProcessor
 * (zerver/lib/markdown/__init__.py), a Markdown preprocessor that runs on the lower-cased source
 * after whitespace normalization and after fenced code blocks were set aside.
 *
 * A match counts when the character before it is one of ALERT_WORD_BEFORE (or the match starts the
 * content) and the character after it is one of ALERT_WORD_AFTER (or the match ends the content).
 * Zulip's sets, kept exactly, quirks included:
 * - its "after" set holds the two-character string `",` which never equals one character, so a
 *   double quote right after a word does not count;
 * - its start check accepts any index <= 0 for the character before the match, so a match that
 *   starts at the content's second character counts whatever its first character is ("xalert").
 */
export const ALERT_WORD_BEFORE: ReadonlySet<string> = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
export const ALERT_WORD_AFTER: ReadonlySet<string> = new Set([' ', '\n', ')', '",', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** The languages whose fenced blocks Zulip renders as Markdown (so alert words in them count). */
const MARKDOWN_FENCES = new Set(['quote', 'quoted', 'spoiler']);
const FENCE_OPEN = /^[ ]*(~{3,}|`{3,})[ ]*\{?\.?([a-zA-Z0-9_+\-./#]*)/;

/**
 * python-markdown's NormalizeWhitespace (line endings to \n, tabs expanded, STX/ETX dropped),
 * then code blocks fenced with ``` or ~~~ blanked out, as Zulip's FencedBlockPreprocessor stashes
 * them before the alert-word preprocessor runs. An unclosed fence runs to the end, as in Zulip.
 */
export function alertWordSource(content: string): string {
  const normalized = content.replace(/[\u0002\u0003]/g, '').replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of normalized.split('\n')) {
    if (fence !== null) {
      if (line.trim() === fence) fence = null;
      out.push('');
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !MARKDOWN_FENCES.has(open[2].toLowerCase())) {
      fence = open[1];
      out.push('');
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** Whether `word` (lower-cased) occurs in `source` (lower-cased) with Zulip's boundaries. */
function occursIn(source: string, word: string): boolean {
  if (word === '') return false;
  for (let start = source.indexOf(word); start !== -1; start = source.indexOf(word, start + 1)) {
    const end = start + word.length;
    const before = start - 1;
    const startOk = before <= 0 || ALERT_WORD_BEFORE.has(source[before]);
    const endOk = end >= source.length || ALERT_WORD_AFTER.has(source[end]);
    if (startOk && endOk) return true;
  }
  return false;
}

/**
 * The users (ascending) among `alertWords` (each user's words, by user id) with at least one word
 * in the content, case-insensitively.
 */
export function userIdsWithAlertWords(content: string, alertWords: Readonly<Record<number, readonly string[]>>): number[] {
  const entries = Object.entries(alertWords);
  if (entries.length === 0) return [];
  const source = alertWordSource(content).toLowerCase();
  const matched = new Map<string, boolean>();
  const ids: number[] = [];
  for (const [userId, words] of entries) {
    const hit = words.some((word) => {
      const key = word.toLowerCase();
      let found = matched.get(key);
      if (found === undefined) matched.set(key, (found = occursIn(source, key)));
      return found;
    });
    if (hit) ids.push(Number(userId));
  }
  return ids.sort((a, b) => a - b);
}
