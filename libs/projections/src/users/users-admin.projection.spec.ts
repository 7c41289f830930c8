import { recorded, replay, userCreated } from '@app/testing';
import type { UserEvent } from '@app/domain';
import { credentialsProjection, usersProjection } from './users.projection';

const AT = '2026-03-01T10:00:00.000Z';
const bot = (userId: number, ownerId: number, botType: 'generic' | 'incoming_webhook' = 'generic') =>
  userCreated({ userId, email: `b${userId}-bot@acme.test`, fullName: `Bot ${userId}`, isBot: true, botType, botOwnerId: ownerId, passwordId: null });
const deactivated = (userId: number): UserEvent => ({ type: 'UserDeactivated', data: { realmId: 1, userId, actorId: 2, at: AT } });
const ownerChanged = (userId: number, oldOwnerId: number, newOwnerId: number): UserEvent => ({
  type: 'BotOwnerChanged', data: { realmId: 1, userId, oldOwnerId, newOwnerId, actorId: 2, at: AT },
});

const usersAfter = (events: UserEvent[]) => replay(usersProjection, recorded(events, 'users-1'));

describe('usersProjection: bots and administration', () => {
  it('stores bots with Zulip\'s bot_type numbers and their owner', () => {
    const docs = usersAfter([userCreated({ userId: 3 }), bot(20, 3), bot(21, 3, 'incoming_webhook')]);
    expect(docs.get('20')).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: 3, role: 400 });
    expect(docs.get('21')).toMatchObject({ is_bot: true, bot_type: 2, bot_owner_id: 3 });
  });

  it('moves a bot to its new owner', () =>
    expect(usersAfter([userCreated({ userId: 3 }), userCreated({ userId: 4, email: 'c@acme.test' }), bot(20, 3), ownerChanged(20, 3, 4)]).get('20'))
      .toMatchObject({ bot_owner_id: 4 }));

  it('applies a cascading deactivation (the bots, then the owner) event by event', () => {
    const docs = usersAfter([userCreated({ userId: 3 }), bot(20, 3), bot(21, 3), deactivated(20), deactivated(21), deactivated(3)]);
    expect([...docs.values()].map((d) => [d.user_id, d.is_active])).toEqual([[3, false], [20, false], [21, false]]);
  });

  it('makes the role filterable, so that owners and administrators can be listed', () =>
    expect(usersProjection.collection.fields).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'role', type: 'number' })])));

  it('ignores an owner change for an unknown document', () => expect(usersAfter([ownerChanged(99, 3, 4)]).size).toBe(0));

  it('is idempotent under redelivery of an owner change', () => {
    const events = recorded([userCreated({ userId: 3 }), bot(20, 3), ownerChanged(20, 3, 4)], 'users-1');
    expect(replay(usersProjection, [...events, events[2]]).get('20')).toEqual(replay(usersProjection, events).get('20'));
  });

  it('keeps bot credentials apart and without a password', () =>
    expect(replay(credentialsProjection, recorded([bot(20, 3)], 'users-1')).get('20')).toEqual({
      user_id: 20, realm_id: 1, email_lower: 'b20-bot@acme.test', api_key_id: 'api_key-10', password_id: null,
    }));
});
