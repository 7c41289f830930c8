import { deciderSpec, emojiAdded, emojiRemoved, TINY_GIF, TINY_JPEG, TINY_PNG, TINY_WEBP } from '@app/testing';
import {
  type Actor,
  type AddRealmEmoji,
  detectImageType,
  GuestUsersNotAllowedError,
  InvalidEmojiImageError,
  RealmEmojiError,
  RealmEmojiNotFoundError,
  realmEmojiDecider,
  type RealmEmojiCommand,
} from '@app/domain';

const given = deciderSpec(realmEmojiDecider);
const AT = '2026-01-01T00:00:00.000Z';
const actor = (userId: number, role: Actor['role']): Actor => ({ realmId: 1, userId, role, isBot: false });
const hamlet = actor(10, 'member');
const cordelia = actor(11, 'member');
const iago = actor(2, 'administrator');
const polonius = actor(12, 'guest');

const png = { fileCount: 1, size: 100, contentType: 'image/png' };
const add = (name: string, patch: Partial<AddRealmEmoji['data']> = {}): RealmEmojiCommand => ({
  type: 'AddRealmEmoji', data: { realmId: 1, actor: hamlet, now: AT, emojiId: 7, name, fileName: 'abcdef01.png', upload: png, ...patch },
});
const remove = (name: string, by: Actor = hamlet): RealmEmojiCommand => ({ type: 'RemoveRealmEmoji', data: { realmId: 1, actor: by, now: AT, name } });

describe('realmEmojiDecider', () => {
  describe('AddRealmEmoji', () => {
    it('adds an emoji, the name normalised (spaces to underscores)', () =>
      given([]).when(add(' my emoji ')).then([
        { type: 'RealmEmojiAdded', data: { realmId: 1, emojiId: 7, name: 'my_emoji', fileName: 'abcdef01.png', contentType: 'image/png', authorId: 10, at: AT } },
      ]));

    it('refuses guests before anything else', () => given([]).when(add('MY*', { actor: polonius })).thenThrows(GuestUsersNotAllowedError, 'Not allowed for guest users'));

    it.each([
      ['', 'Emoji name is missing'],
      ['   ', 'Emoji name is missing'],
      ['my_emoji_', 'Emoji names must end with either a letter or digit.'],
      ['my-emoji-', 'Emoji names must end with either a letter or digit.'],
      ['my_EMoji', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
      ['my_em*oji', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
      ['émoji', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    ])('refuses the name %j: %s', (name, message) => given([]).when(add(name)).thenThrows(RealmEmojiError, message));

    it('refuses a name an active emoji has, and takes the name of a deactivated one', () => {
      given([emojiAdded({ name: 'party' })]).when(add('party')).thenThrows(RealmEmojiError, 'A custom emoji with this name already exists.');
      given([emojiAdded({ name: 'party' }), emojiRemoved(1, 'party')]).when(add('party')).thenMatches([{ data: { name: 'party' } }]);
    });

    it('needs exactly one file', () => {
      given([]).when(add('party', { upload: { fileCount: 0, size: 0, contentType: null } })).thenThrows(RealmEmojiError, 'You must upload exactly one file.');
      given([]).when(add('party', { upload: { fileCount: 2, size: 10, contentType: null } })).thenThrows(RealmEmojiError, 'You must upload exactly one file.');
    });

    it('lets only administrators override a default emoji', () => {
      given([]).when(add('smile')).thenThrows(RealmEmojiError, 'Only administrators can override default emoji.');
      given([]).when(add('smile', { actor: iago })).thenMatches([{ data: { name: 'smile', authorId: 2 } }]);
    });

    it('refuses a file over 5 MiB', () => {
      given([]).when(add('big', { upload: { ...png, size: 5 * 1024 * 1024 } })).thenMatches([{ type: 'RealmEmojiAdded' }]);
      given([]).when(add('big', { upload: { ...png, size: 5 * 1024 * 1024 + 1 } })).thenThrows(RealmEmojiError, 'Uploaded file is larger than the allowed limit of 5 MiB');
    });

    it('refuses a file that is not a PNG, GIF, JPEG or WebP image', () => {
      const error = () => realmEmojiDecider.decide(add('odd', { upload: { ...png, contentType: null } }), realmEmojiDecider.initialState());
      expect(error).toThrow(InvalidEmojiImageError);
      expect(error).toThrow('Invalid image format');
      try {
        error();
      } catch (e) {
        expect((e as InvalidEmojiImageError).code).toBe('BAD_IMAGE');
      }
    });
  });

  describe('RemoveRealmEmoji', () => {
    const party = emojiAdded({ emojiId: 1, name: 'party', authorId: 10 });

    it('deactivates the author\'s emoji', () =>
      given([party]).when(remove('party')).then([{ type: 'RealmEmojiRemoved', data: { realmId: 1, emojiId: 1, name: 'party', actorId: 10, at: AT } }]));

    it('lets administrators deactivate anyone\'s, and emoji without an author', () => {
      given([party]).when(remove('party', iago)).thenMatches([{ data: { actorId: 2 } }]);
      given([emojiAdded({ authorId: null })]).when(remove('party', iago)).thenMatches([{ type: 'RealmEmojiRemoved' }]);
    });

    it('refuses other members', () => given([party]).when(remove('party', cordelia)).thenThrows(RealmEmojiError, 'Must be an organization administrator or emoji author'));

    it('answers 404 BAD_REQUEST for a missing or already deactivated emoji', () => {
      for (const events of [[], [party, emojiRemoved(1, 'party')]]) {
        const act = () => realmEmojiDecider.decide(remove('party'), events.reduce(realmEmojiDecider.evolve, realmEmojiDecider.initialState()));
        expect(act).toThrow(RealmEmojiNotFoundError);
        expect(act).toThrow("Emoji 'party' does not exist");
        try {
          act();
        } catch (e) {
          expect({ code: (e as RealmEmojiNotFoundError).code, status: (e as RealmEmojiNotFoundError).httpStatus }).toEqual({ code: 'BAD_REQUEST', status: 404 });
        }
      }
    });

    it('deactivates the active emoji of a name used before', () =>
      given([party, emojiRemoved(1), emojiAdded({ emojiId: 2, name: 'party', authorId: 11 })]).when(remove('party', cordelia)).thenMatches([{ data: { emojiId: 2 } }]));
  });

  it('recognises images by their first bytes', () => {
    expect([TINY_PNG, TINY_GIF, TINY_JPEG, TINY_WEBP].map(detectImageType)).toEqual(['image/png', 'image/gif', 'image/jpeg', 'image/webp']);
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(Buffer.from('II*\u0000'))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });
});
