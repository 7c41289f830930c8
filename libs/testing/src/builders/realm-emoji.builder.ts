import type { RealmEmojiAdded, RealmEmojiRemoved } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** An emoji "party" (id 1) added by user 10 in realm 1, unless overridden. */
export const emojiAdded = (overrides: Partial<RealmEmojiAdded['data']> = {}): RealmEmojiAdded => ({
  type: 'RealmEmojiAdded',
  data: { realmId: 1, emojiId: 1, name: 'party', fileName: 'abcdef01.png', contentType: 'image/png', authorId: 10, at: AT, ...overrides },
});

export const emojiRemoved = (emojiId = 1, name = 'party', actorId: number | null = 10): RealmEmojiRemoved => ({
  type: 'RealmEmojiRemoved', data: { realmId: 1, emojiId, name, actorId, at: AT },
});

/** The smallest valid images of each accepted type (magic bytes and a little more). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const TINY_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const TINY_JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
export const TINY_WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(18)]);
