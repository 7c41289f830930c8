import { emojiAdded, emojiRemoved, recorded, replay } from '@app/testing';
import { realmEmojiProjection } from './realm-emoji.projection';

describe('realmEmojiProjection', () => {
  it('stores an emoji as Zulip\'s EmojiInfo with its image URL', () =>
    expect(replay(realmEmojiProjection, recorded([emojiAdded({ emojiId: 3, name: 'party', fileName: '0123abcd.gif', contentType: 'image/gif', authorId: 10 })])).get('3')).toEqual({
      id: '3', realm_id: 1, name: 'party', source_url: '/user_avatars/1/emoji/images/0123abcd.gif', still_url: null, deactivated: false,
      author_id: 10, file_name: '0123abcd.gif', content_type: 'image/gif',
    }));

  it('keeps a deactivated emoji, marked', () =>
    expect(replay(realmEmojiProjection, recorded([emojiAdded(), emojiRemoved(1)])).get('1')).toMatchObject({ name: 'party', deactivated: true }));
});
