import { recorded, replay } from '@app/testing';
import { userStatusProjection } from './user-status.projection';

const changed = (fields: object) => ({ type: 'UserStatusChanged', data: { realmId: 1, userId: 10, ...fields, actorId: 10, at: '2026-01-01T00:00:00.000Z' } });

describe('userStatusProjection', () => {
  it('changes only what an update names', () => {
    const docs = replay(userStatusProjection, recorded([
      changed({ statusText: 'Vacationing' }),
      changed({ emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' }),
      changed({ statusText: 'Back soon' }),
    ]));
    expect(docs.get('10')).toEqual({ user_id: 10, realm_id: 1, status_text: 'Back soon', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  });

  it('clears the text and the emoji', () => {
    const docs = replay(userStatusProjection, recorded([
      changed({ statusText: 'Vacationing', emojiName: 'car', emojiCode: '1f697', reactionType: 'unicode_emoji' }),
      changed({ statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' }),
    ]));
    expect(docs.get('10')).toMatchObject({ status_text: '', emoji_name: '', emoji_code: '' });
  });
});
