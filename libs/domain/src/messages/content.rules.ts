import { emptyMessage, messageHasNullBytes } from './messages.errors';
import { pyRstrip, truncateContent } from './text.rules';

/** settings.MAX_MESSAGE_LENGTH (`max_message_length` in POST /register). */
export const MAX_MESSAGE_LENGTH = 10000;
export const MESSAGE_TRUNCATION_SUFFIX = '\n[message truncated]';

/**
 * zerver/lib/message.py normalize_body: trailing whitespace of the whole message (every kind
 * Python's str.rstrip removes, so trailing blank lines and spaces) and leading newlines are
 * dropped; leading spaces stay (they may indent a code block). Empty → "Message must not be
 * empty"; a NUL byte → "Message must not contain null bytes"; longer than 10,000 code points →
 * cut so that the result, with "\n[message truncated]", is exactly 10,000.
 */
export function normalizeContent(raw: string, maxLength = MAX_MESSAGE_LENGTH): string {
  let body = pyRstrip(raw);
  body = body.replace(/^\n+/, '');
  if (body.length === 0) throw emptyMessage();
  if (body.includes('\u0000')) throw messageHasNullBytes();
  return truncateContent(body, maxLength, MESSAGE_TRUNCATION_SUFFIX);
}

/** Message.is_me_message: "/me does something" on one line. */
export const isMeMessage = (content: string): boolean => content.startsWith('/me ') && !content.includes('\n');
