import { EMOJI_CODES } from '../messages/rendering/emoji';
import { UNICODE_EMOJI_DATA } from './unicode-emoji.data';

/**
 * Zulip's name_to_codepoint and codepoint_to_name (zerver/lib/emoji.py), from the table in
 * unicode-emoji.data.ts with Zulip's own names (the ones this server renders) taking precedence.
 */
function build(): { nameToCode: Map<string, string>; codes: Set<string> } {
  const nameToCode = new Map<string, string>();
  const codes = new Set<string>();
  for (const entry of UNICODE_EMOJI_DATA.split(';')) {
    if (entry === '') continue;
    const [code, names] = entry.split(':');
    codes.add(code);
    for (const name of names.split(',')) if (name !== '') nameToCode.set(name, code);
  }
  for (const [name, code] of Object.entries(EMOJI_CODES)) {
    nameToCode.set(name, code);
    codes.add(code);
  }
  return { nameToCode, codes };
}

const TABLE = build();

/** name_to_codepoint[name]. */
export const unicodeEmojiCode = (name: string): string | undefined => TABLE.nameToCode.get(name);

/** `code in codepoint_to_name`. */
export const isUnicodeEmojiCode = (code: string): boolean => TABLE.codes.has(code);
