import { emojiCode } from '../messages/rendering/emoji';
import { type Actor, isAdministrator } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { GuestUsersNotAllowedError } from '../subscriptions/subscriptions.errors';
import { InsufficientPermissionError } from '../users/users.errors';
import { InvalidEmojiImageError, RealmEmojiError, RealmEmojiNotFoundError } from './realm-emoji.errors';
import type { RealmEmojiEvent } from './realm-emoji.events';
import { MAX_EMOJI_FILE_SIZE_MIB, canAddCustomEmoji, checkValidEmojiName, normalizeEmojiName } from './realm-emoji.rules';

type Meta = { realmId: number; actor: Actor; now: string };

/** What the request carried: how many files, and the one file's size and recognised image type. */
export type EmojiUpload = { fileCount: number; size: number; contentType: string | null };

/** `POST /realm/emoji/{emoji_name}` (upload_emoji). Id and file name come from the handler. */
export type AddRealmEmoji = { type: 'AddRealmEmoji'; data: Meta & { emojiId: number; name: string; fileName: string; upload: EmojiUpload } };

/** `DELETE /realm/emoji/{emoji_name}` (delete_emoji). */
export type RemoveRealmEmoji = { type: 'RemoveRealmEmoji'; data: Meta & { name: string } };

export type RealmEmojiCommand = AddRealmEmoji | RemoveRealmEmoji;

export type RealmEmojiState = { emoji: Record<number, { emojiId: number; name: string; authorId: number | null; deactivated: boolean }> };

const activeByName = (state: RealmEmojiState, name: string) => Object.values(state.emoji).find((e) => !e.deactivated && e.name === name);

/** upload_emoji's checks in Zulip's order; returns the name as stored. */
function checkAdd(d: AddRealmEmoji['data'], state: RealmEmojiState): { name: string; contentType: string } {
  if (d.actor.role === 'guest') throw new GuestUsersNotAllowedError();
  const name = normalizeEmojiName(d.name);
  checkValidEmojiName(name);
  if (!canAddCustomEmoji(d.actor.role)) throw new InsufficientPermissionError();
  if (activeByName(state, name)) throw new RealmEmojiError('A custom emoji with this name already exists.');
  if (d.upload.fileCount !== 1) throw new RealmEmojiError('You must upload exactly one file.');
  if (emojiCode(name) !== undefined && !isAdministrator(d.actor)) throw new RealmEmojiError('Only administrators can override default emoji.');
  if (d.upload.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw new RealmEmojiError(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  if (d.upload.contentType === null) throw new InvalidEmojiImageError();
  return { name, contentType: d.upload.contentType };
}

/** The custom emoji of one organization (stream `realm_emoji-<realmId>`). */
export const realmEmojiDecider: Decider<RealmEmojiCommand, RealmEmojiEvent, RealmEmojiState> = {
  snapshot: { name: 'realm-emoji', version: 1 },
  initialState: () => ({ emoji: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    if (command.type === 'AddRealmEmoji') {
      const { name, contentType } = checkAdd(command.data, state);
      const { emojiId, fileName } = command.data;
      return [{ type: 'RealmEmojiAdded', data: { realmId, emojiId, name, fileName, contentType, authorId: actor.userId, at } }];
    }
    const emoji = activeByName(state, command.data.name);
    if (!emoji) throw new RealmEmojiNotFoundError(command.data.name);
    // check_remove_custom_emoji: members may deactivate only emoji they added.
    if (!isAdministrator(actor) && (emoji.authorId === null || emoji.authorId !== actor.userId)) {
      throw new RealmEmojiError('Must be an organization administrator or emoji author');
    }
    return [{ type: 'RealmEmojiRemoved', data: { realmId, emojiId: emoji.emojiId, name: emoji.name, actorId: actor.userId, at } }];
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'RealmEmojiAdded': {
        const { emojiId, name, authorId } = event.data;
        return { emoji: { ...state.emoji, [emojiId]: { emojiId, name, authorId, deactivated: false } } };
      }
      case 'RealmEmojiRemoved': {
        const emoji = state.emoji[event.data.emojiId];
        return emoji ? { emoji: { ...state.emoji, [emoji.emojiId]: { ...emoji, deactivated: true } } } : state;
      }
      default:
        return state;
    }
  },
};
