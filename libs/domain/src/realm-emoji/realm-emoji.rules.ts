import type { Role } from '../shared/actor';
import { pythonStrip } from '../shared/printable-text';
import { RealmEmojiError } from './realm-emoji.errors';

/** settings.MAX_EMOJI_FILE_SIZE_MIB. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** upload_emoji: surrounding whitespace dropped, spaces become underscores. */
export const normalizeEmojiName = (name: string): string => pythonStrip(name).replace(/ /g, '_');

/** zerver/lib/emoji.py check_valid_emoji_name. */
export function checkValidEmojiName(name: string): void {
  if (name === '') throw new RealmEmojiError('Emoji name is missing');
  if (/^[0-9a-z\-_]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw new RealmEmojiError('Emoji names must end with either a letter or digit.');
    return;
  }
  throw new RealmEmojiError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

/**
 * Realm.can_add_custom_emoji_group at Zulip's default (role:members): every member, moderator and
 * administrator; guests are refused before this (require_member_or_admin).
 */
export const canAddCustomEmoji = (role: Role | 'operator'): boolean => role !== 'guest';

/** The image types Zulip accepts for emoji, as recognised from their first bytes. */
export const EMOJI_IMAGE_TYPES: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/gif': '.gif',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
};

/** The type of an image from its magic bytes (PNG, GIF, JPEG, WebP), or null. */
export function detectImageType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return null;
}
