/**
 * Text checks shared by names and topics, after Zulip's zerver/lib/string_validation.py, counted in
 * code points as Python counts `len()` and positions.
 */

/** Python's `str.isspace()` characters, which `str.strip()` removes (JavaScript's `trim()` differs slightly). */
const PYTHON_WHITESPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PYTHON_WHITESPACE}]+`);
const TRAILING = new RegExp(`[${PYTHON_WHITESPACE}]+$`);

/** Python's `str.strip()`. */
export const pythonStrip = (text: string): string => text.replace(LEADING, '').replace(TRAILING, '');

/** Length in code points (Python's `len`). */
export const codePointLength = (text: string): number => [...text].length;

/** The 66 Unicode non-characters: U+FDD0..U+FDEF and the last two code points of every plane. */
const isNonCharacter = (codePoint: number): boolean =>
  (codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe;

/** Zulip's is_character_printable: not a control character (Cc), not a surrogate (Cs), not a non-character. */
export const isPrintableCharacter = (char: string): boolean =>
  !/[\p{Cc}\p{Cs}]/u.test(char) && !isNonCharacter(char.codePointAt(0)!);

/** Zulip's check_string_is_printable: the 1-based position of the first unprintable character, or null. */
export function unprintablePosition(text: string): number | null {
  let position = 0;
  for (const char of text) {
    position += 1;
    if (!isPrintableCharacter(char)) return position;
  }
  return null;
}
