/**
 * Python string semantics the message rules depend on, beyond shared/printable-text: Zulip
 * strips and slices by code point with Python's idea of whitespace.
 */

/** Characters Python's str.isspace() accepts (str.rstrip() with no argument removes them). */
const PY_WHITESPACE = '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python's str.rstrip(). */
export function pyRstrip(text: string): string {
  let end = text.length;
  while (end > 0 && PY_WHITESPACE.includes(text[end - 1])) end--;
  return text.slice(0, end);
}

/** zerver/lib/message.py truncate_content, by code point. */
export function truncateContent(content: string, maxLength: number, truncationMessage: string): string {
  const points = [...content];
  if (points.length <= maxLength) return content;
  return points.slice(0, maxLength - [...truncationMessage].length).join('') + truncationMessage;
}

/** Django's escape() (django.utils.html.escape), which Zulip applies to names it echoes in errors. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
