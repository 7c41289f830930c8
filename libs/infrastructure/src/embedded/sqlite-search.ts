/**
 * The embedded search index's tokenizer: FTS5's porter stemmer over unicode61 (case folding,
 * Unicode word boundaries), diacritics removed ("café" finds "cafe"). See docs/messages.md.
 */
export const FTS5_TOKENIZER = 'porter unicode61 remove_diacritics 2';
