import { EmojiDoesNotExistError, InvalidEmojiError } from './emoji.errors';
import { isUnicodeEmojiCode, unicodeEmojiCode } from './unicode-emoji';

/** The namespaces of `emoji_code` (Reaction.REACTION_TYPES; `svc_extra_emoji` is Zulip's zulip_extra_emoji). */
export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'svc_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** A custom emoji of the organization, as the custom emoji read model knows it (id as text, as emoji_code carries it). */
export type CustomEmojiFact = { id: string; name: string; deactivated: boolean };

/** The extra emoji Zulip ships: only `zulip`. */
export const EXTRA_EMOJI = ['zulip'] as const;

export type EmojiData = { emojiCode: string; reactionType: ReactionType };

/**
 * get_emoji_data: the emoji a name stands for, given the active custom emoji of that name (if any):
 * custom emoji first, then the extra `zulip`, then Unicode; "Emoji 'x' does not exist" otherwise.
 */
export function emojiDataFor(name: string, activeCustomEmoji: CustomEmojiFact | null): EmojiData {
  if (activeCustomEmoji && !activeCustomEmoji.deactivated) return { emojiCode: activeCustomEmoji.id, reactionType: 'realm_emoji' };
  if ((EXTRA_EMOJI as readonly string[]).includes(name)) return { emojiCode: name, reactionType: 'svc_extra_emoji' };
  const code = unicodeEmojiCode(name);
  if (code !== undefined) return { emojiCode: code, reactionType: 'unicode_emoji' };
  throw new EmojiDoesNotExistError(name);
}

/**
 * check_emoji_request: the code exists in its namespace and the name is that emoji's. `customEmoji`
 * is the organization's custom emoji with id `code` (deactivated ones included), if any.
 */
export function checkEmojiRequest(name: string, code: string, type: string, customEmoji: CustomEmojiFact | null): void {
  switch (type) {
    case 'realm_emoji':
      if (!customEmoji) throw InvalidEmojiError.customEmoji();
      if (customEmoji.name !== name) throw InvalidEmojiError.customEmojiName();
      if (customEmoji.deactivated) throw InvalidEmojiError.customEmojiDeactivated();
      return;
    case 'svc_extra_emoji':
      if (!(EXTRA_EMOJI as readonly string[]).includes(code)) throw InvalidEmojiError.invalidCode();
      if (name !== code) throw InvalidEmojiError.invalidName();
      return;
    case 'unicode_emoji':
      if (!isUnicodeEmojiCode(code)) throw InvalidEmojiError.invalidCode();
      if (unicodeEmojiCode(name) !== code) throw InvalidEmojiError.invalidName();
      return;
    default:
      throw InvalidEmojiError.invalidType();
  }
}
