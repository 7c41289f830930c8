import { MAX_MESSAGE_LENGTH } from '../messages/content.rules';
import { codePointLength, pythonStrip } from '../shared/printable-text';
import { InvalidSavedSnippetError } from './saved-snippets.errors';

/** SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SAVED_SNIPPET_TITLE_LENGTH = 60;
/** settings.MAX_MESSAGE_LENGTH: a snippet is inserted into a message. */
export const MAX_SAVED_SNIPPET_CONTENT_LENGTH = MAX_MESSAGE_LENGTH;

const LIMITS = { title: MAX_SAVED_SNIPPET_TITLE_LENGTH, content: MAX_SAVED_SNIPPET_CONTENT_LENGTH } as const;

/** Stripped, then not blank and at most the field's limit in code points (pydantic strips before measuring). */
export function checkSavedSnippetField(field: 'title' | 'content', raw: string): string {
  const value = pythonStrip(raw);
  if (value.length === 0) throw InvalidSavedSnippetError.blank(field);
  if (codePointLength(value) > LIMITS[field]) throw InvalidSavedSnippetError.tooLong(field, LIMITS[field]);
  return value;
}
