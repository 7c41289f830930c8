import { recorded, replay } from '@app/testing';
import { reactionsProjection } from './reactions.projection';

const AT = '2026-03-04T05:06:07.000Z';
const reaction = (userId: number, emojiName: string, emojiCode: string, reactionType = 'unicode_emoji') => ({ realmId: 1, messageId: 42, userId, emojiName, emojiCode, reactionType, at: AT });
const added = (userId: number, name: string, code: string, type?: string) => ({ type: 'ReactionAdded', data: { ...reaction(userId, name, code, type), historical: false } });
const removed = (userId: number, name: string, code: string, type?: string) => ({ type: 'ReactionRemoved', data: reaction(userId, name, code, type) });
const after = (events: { type: string; data: object }[]) => replay(reactionsProjection, recorded(events, 'message-42'));

describe('reactionsProjection', () => {
  it("keeps a message's reactions in the order they were added, in the API's shape", () => {
    const docs = after([added(10, 'octopus', '1f419'), added(11, 'octopus', '1f419'), added(10, 'zulip', 'zulip', 'svc_extra_emoji')]);
    expect(docs.get('42')).toEqual({
      message_id: 42,
      realm_id: 1,
      reactions: [
        { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: 10 },
        { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: 11 },
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji', user_id: 10 },
      ],
    });
  });

  it("removes only that user's reaction with that emoji, and the document with the last one", () => {
    const docs = after([added(10, 'octopus', '1f419'), added(11, 'octopus', '1f419'), removed(10, 'octopus', '1f419')]);
    expect(docs.get('42')?.reactions).toEqual([{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: 11 }]);
    expect(after([added(10, 'octopus', '1f419'), removed(10, 'octopus', '1f419')]).size).toBe(0);
  });

  it('drops the reactions of a deleted message, and a reaction recorded after the deletion', () => {
    const deleted = { type: 'MessageDeleted', data: { realmId: 1, messageId: 42 } };
    expect(after([added(10, 'octopus', '1f419'), deleted]).get('42')).toEqual({ message_id: 42, realm_id: 1, reactions: [], deleted: true });
    expect(after([deleted, added(11, 'car', '1f697')]).get('42')?.reactions).toEqual([]);
  });

  it('is the same under redelivery', () => {
    const events = recorded([added(10, 'octopus', '1f419'), added(11, 'car', '1f697')], 'message-42');
    expect(replay(reactionsProjection, [...events, ...events])).toEqual(replay(reactionsProjection, events));
  });
});
