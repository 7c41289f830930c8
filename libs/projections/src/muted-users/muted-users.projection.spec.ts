import { recorded, replay, userMuted, userUnmuted } from '@app/testing';
import { mutedUsersProjection } from './muted-users.projection';

const after = (events: { type: string; data: object }[]) => replay(mutedUsersProjection, recorded(events, 'muted_users-10'));

describe('mutedUsersProjection', () => {
  it('lists the muted users with the time of muting, in seconds, in the order muted', () =>
    expect(after([userMuted(12, 10, '2026-01-02T03:04:05.500Z'), userMuted(11, 10, '2026-01-02T03:04:06.000Z')]).get('10')).toEqual({
      user_id: 10, muted_users: [{ id: 12, timestamp: 1767323045 }, { id: 11, timestamp: 1767323046 }],
    }));

  it('drops unmuted users, and a user muted again moves to the end with the new time', () =>
    expect(after([userMuted(12), userMuted(11), userUnmuted(12), userMuted(13), userUnmuted(11), userMuted(11, 10, '2026-03-01T00:00:00.000Z')]).get('10')!.muted_users)
      .toEqual([{ id: 13, timestamp: 1767225600 }, { id: 11, timestamp: 1772323200 }]));

  it('keeps one document per muting user', () => expect([...after([userMuted(12, 10), userMuted(10, 11)]).keys()]).toEqual(['10', '11']));
});
