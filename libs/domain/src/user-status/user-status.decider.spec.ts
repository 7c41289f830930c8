import { deciderSpec } from '@app/testing';
import {
  EmojiDoesNotExistError,
  EmojiNameRequiredError,
  InsufficientPermissionError,
  InvalidEmojiError,
  NoNewStatusValuesError,
  NoSuchUserError,
  StatusTextTooLongError,
  UserIsDeactivatedError,
  userStatusDecider,
  type CustomEmojiFact,
  type StatusTarget,
  type UserStatusCommand,
  type UserStatusInput,
} from '@app/domain';

const given = deciderSpec(userStatusDecider);
const NOW = '2026-02-03T04:05:06.000Z';
const partyParrot: CustomEmojiFact = { id: '7', name: 'party_parrot', deactivated: false };

const update = (
  input: UserStatusInput,
  options: { customByName?: CustomEmojiFact | null; customById?: CustomEmojiFact | null; target?: StatusTarget; actorId?: number; admin?: boolean } = {},
): UserStatusCommand => ({
  type: 'UpdateUserStatus',
  data: {
    realmId: 1, userId: 10, actorId: options.actorId ?? 10, actorIsAdministrator: options.admin ?? false, now: NOW, input,
    emoji: { customByName: options.customByName ?? null, customById: options.customById ?? null },
    ...(options.target !== undefined ? { target: options.target } : {}),
  },
});
const status = (fields: object, actorId = 10) => [{ type: 'UserStatusChanged', data: { realmId: 1, userId: 10, ...fields, actorId, at: NOW } }];

describe('userStatusDecider', () => {
  it('sets the text, stripped, and clears it when empty', () => {
    given([]).when(update({ statusText: '  In a meeting \n' })).then(status({ statusText: 'In a meeting' }) as never);
    given([]).when(update({ statusText: '' })).then(status({ statusText: '' }) as never);
  });

  it('allows 60 code points after stripping, not 61', () => {
    given([]).when(update({ statusText: ` ${'🐙'.repeat(60)} ` })).thenMatches([{ data: { statusText: '🐙'.repeat(60) } }]);
    given([]).when(update({ statusText: 'x'.repeat(61) })).thenThrows(StatusTextTooLongError, 'status_text is too long (limit: 60 characters)');
  });

  it('wants something new', () => given([]).when(update({})).thenThrows(NoNewStatusValuesError, 'Client did not pass any new values.'));

  it('takes away alone as something new, which changes no status', () => given([]).when(update({ away: true })).thenNothingHappened());

  it('wants emoji_name with emoji_code or reaction_type', () => {
    given([]).when(update({ statusText: 'x', emojiCode: '1f697' })).thenThrows(EmojiNameRequiredError, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    // A code alone is no new value: Zulip looks at away, the text and the name first.
    given([]).when(update({ emojiCode: '1f697' })).thenThrows(NoNewStatusValuesError);
    given([]).when(update({ statusText: 'x', reactionType: 'unicode_emoji' })).thenThrows(EmojiNameRequiredError);
  });

  it('fills the code and type of an emoji named alone', () => {
    given([]).when(update({ emojiName: 'car' })).then(status({ emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' }) as never);
    given([]).when(update({ emojiName: 'zulip' })).then(status({ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'svc_extra_emoji' }) as never);
    given([]).when(update({ emojiName: 'party_parrot' }, { customByName: partyParrot, customById: partyParrot })).then(
      status({ emojiName: 'party_parrot', emojiCode: '7', reactionType: 'realm_emoji' }) as never,
    );
    given([]).when(update({ emojiName: 'no_such_emoji' })).thenThrows(EmojiDoesNotExistError, "Emoji 'no_such_emoji' does not exist");
  });

  it('clears the emoji with an empty name', () =>
    given([]).when(update({ emojiName: '', emojiCode: 'ignored' })).then(status({ emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' }) as never));

  it('checks the emoji in its namespace (check_emoji_request)', () => {
    given([]).when(update({ emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' })).thenMatches([{ data: { emojiCode: '1f697' } }]);
    given([]).when(update({ emojiName: 'car', emojiCode: 'ffff', reactionType: 'unicode_emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji code.');
    given([]).when(update({ emojiName: 'octopus', emojiCode: '1f697', reactionType: 'unicode_emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji name.');
    given([]).when(update({ emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'svc_extra_emoji' })).thenMatches([{ data: { reactionType: 'svc_extra_emoji' } }]);
    given([]).when(update({ emojiName: 'zulip', emojiCode: 'parrot', reactionType: 'svc_extra_emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji code.');
    given([]).when(update({ emojiName: 'car', emojiCode: 'zulip', reactionType: 'svc_extra_emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji name.');
    given([]).when(update({ emojiName: 'car', emojiCode: '1f697', reactionType: 'emoji' })).thenThrows(InvalidEmojiError, 'Invalid emoji type.');
  });

  it('checks custom emoji against the organization\'s', () => {
    given([]).when(update({ emojiName: 'party_parrot', emojiCode: '7', reactionType: 'realm_emoji' })).thenThrows(InvalidEmojiError, 'Invalid custom emoji.');
    given([]).when(update({ emojiName: 'parrot', emojiCode: '7', reactionType: 'realm_emoji' }, { customById: partyParrot })).thenThrows(InvalidEmojiError, 'Invalid custom emoji name.');
    given([]).when(update({ emojiName: 'party_parrot', emojiCode: '7', reactionType: 'realm_emoji' }, { customById: { ...partyParrot, deactivated: true } })).thenThrows(
      InvalidEmojiError,
      'This custom emoji has been deactivated.',
    );
  });

  describe('for another user (POST /users/{user_id}/status)', () => {
    const human: StatusTarget = { isBot: false, isActive: true, botOwnerId: null };
    it('lets administrators set it', () =>
      given([]).when(update({ statusText: 'Away' }, { target: human, actorId: 2, admin: true })).then(status({ statusText: 'Away' }, 2) as never));

    it('refuses others with "Insufficient permission", after "No such user" and "User is deactivated"', () => {
      given([]).when(update({ statusText: 'Away' }, { target: human, actorId: 11 })).thenThrows(InsufficientPermissionError, 'Insufficient permission');
      given([]).when(update({ statusText: 'Away' }, { target: null, actorId: 11 })).thenThrows(NoSuchUserError, 'No such user');
      given([]).when(update({ statusText: 'Away' }, { target: { ...human, isBot: true }, admin: true })).thenThrows(NoSuchUserError);
      given([]).when(update({ statusText: 'Away' }, { target: { ...human, isActive: false }, admin: true })).thenThrows(UserIsDeactivatedError, 'User is deactivated');
    });

    it('checks permission before the values', () =>
      given([]).when(update({}, { target: human, actorId: 11 })).thenThrows(InsufficientPermissionError));
  });
});
