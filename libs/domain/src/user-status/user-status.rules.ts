import { NoSuchUserError, InsufficientPermissionError, UserIsDeactivatedError } from '../users/users.errors';
import { pythonStrip, codePointLength } from '../shared/printable-text';
import { type CustomEmojiFact, type ReactionType, checkEmojiRequest, emojiDataFor } from '../emoji/emoji.rules';
import { EmojiNameRequiredError, NoNewStatusValuesError, StatusTextTooLongError } from './user-status.errors';

export const MAX_STATUS_TEXT_LENGTH = 60;

/** What a request asks for; `away` only through `POST /users/me/status`. */
export type UserStatusInput = { away?: boolean; statusText?: string; emojiName?: string; emojiCode?: string; reactionType?: string };

/** The custom emoji the request may name: the active one called `emojiName`, and the one with id `emojiCode`. */
export type StatusEmojiFacts = { customByName: CustomEmojiFact | null; customById: CustomEmojiFact | null };

/** What changes: the text (empty clears it), and the emoji (an empty name clears it). */
export type NewUserStatus = { statusText?: string; emoji?: { emojiName: string; emojiCode: string; reactionType: ReactionType | string } };

/** The status text as pydantic takes it: stripped, then at most 60 code points. */
export function checkStatusText(text: string): string {
  const stripped = pythonStrip(text);
  if (codePointLength(stripped) > MAX_STATUS_TEXT_LENGTH) throw new StatusTextTooLongError();
  return stripped;
}

/** zerver/lib/user_status.py check_update_user_status. */
export function checkUpdateUserStatus(input: UserStatusInput, facts: StatusEmojiFacts): NewUserStatus {
  const statusText = input.statusText === undefined ? undefined : checkStatusText(input.statusText);
  if (input.away === undefined && statusText === undefined && input.emojiName === undefined) throw new NoNewStatusValuesError();
  const result: NewUserStatus = statusText === undefined ? {} : { statusText };
  const name = input.emojiName;
  if (name === '') {
    // An empty name clears the emoji.
    return { ...result, emoji: { emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' } };
  }
  if (name === undefined) {
    if (input.reactionType || input.emojiCode) throw new EmojiNameRequiredError();
    return result;
  }
  let code = input.emojiCode;
  let type = input.reactionType;
  if (code === undefined || type === undefined) {
    // Simple clients may name the emoji alone: the current name → code mapping fills in the rest.
    const data = emojiDataFor(name, facts.customByName);
    code ??= data.emojiCode;
    type ??= data.reactionType;
  }
  checkEmojiRequest(name, code, type, facts.customById);
  return { ...result, emoji: { emojiName: name, emojiCode: code, reactionType: type } };
}

/** The account whose status an administrator sets, as the read models know it. */
export type StatusTarget = { isBot: boolean; isActive: boolean; botOwnerId: number | null } | null;

/**
 * access_user_by_id(allow_bots=False, for_admin=True) for `POST /users/{user_id}/status`:
 * "No such user" (bots included), "User is deactivated", then "Insufficient permission" unless the
 * caller administers the organization (can_admin_user).
 */
export function checkMaySetStatusOf(target: StatusTarget, actor: { userId: number | null; isAdministrator: boolean }): void {
  if (!target || target.isBot) throw new NoSuchUserError();
  if (!target.isActive) throw new UserIsDeactivatedError();
  if (!actor.isAdministrator && !(actor.userId !== null && target.botOwnerId === actor.userId)) throw new InsufficientPermissionError();
}
