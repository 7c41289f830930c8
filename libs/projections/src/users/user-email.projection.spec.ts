import type { UserEvent, UserSettingChanged } from '@app/domain';
import { recorded, replay, userCreated } from '@app/testing';
import type { Recorded } from '../shared/projection';
import { credentialsProjection, usersProjection } from './users.projection';

const AT = '2026-01-01T00:00:00.000Z';
const events = () => recorded([
  userCreated({ userId: 10, email: 'hamlet@acme.test', timezone: 'Europe/Paris' }),
  { type: 'UserEmailChanged', data: { realmId: 1, userId: 10, oldEmail: 'hamlet@acme.test', newEmail: 'Prince@acme.test', actorId: 10, at: AT } },
  { type: 'UserSettingChanged', data: { realmId: 1, userId: 10, property: 'color_scheme', oldValue: 1, newValue: 2, actorId: 10, editedBySelf: true, at: AT } },
  { type: 'UserSettingChanged', data: { realmId: 1, userId: 10, property: 'timezone', oldValue: 'Europe/Paris', newValue: 'America/Denver', actorId: 10, editedBySelf: true, at: AT } },
]) as Recorded<UserEvent | UserSettingChanged>[];

describe('users and credentials after a change of address or time zone', () => {
  it('show the new address and time zone on the user', () =>
    expect(replay(usersProjection, events()).get('10')).toMatchObject({ email: 'Prince@acme.test', delivery_email: 'Prince@acme.test', timezone: 'America/Denver' }));

  it('log in with the new address', () => expect(replay(credentialsProjection, events()).get('10')!.email_lower).toBe('prince@acme.test'));

  it('touch the user document for the time zone only', () =>
    expect(usersProjection.idsOf(events()[2])).toEqual([]));
});
