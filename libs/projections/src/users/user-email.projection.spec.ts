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

describe('users under email_address_visibility (get_display_email_address)', () => {
  const visibility = (oldValue: number, newValue: number, dummyEmail?: string) =>
    ({ type: 'UserSettingChanged', data: { realmId: 1, userId: 10, property: 'email_address_visibility', oldValue, newValue, actorId: 10, editedBySelf: true, ...(dummyEmail ? { dummyEmail } : {}), at: AT } }) as const;
  const moved = { type: 'UserEmailChanged', data: { realmId: 1, userId: 10, oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', actorId: 10, at: AT } } as const;
  const replayed = (...later: (UserEvent | UserSettingChanged)[]) =>
    replay(usersProjection, recorded([userCreated({ userId: 10, email: 'hamlet@acme.test' }), ...later]) as Recorded<UserEvent | UserSettingChanged>[]).get('10');

  it('shows the dummy address as email once the setting leaves "everyone", keeping the real one as delivery_email', () =>
    expect(replayed(visibility(1, 3, 'user10@acme.chat.test'))).toMatchObject({ email: 'user10@acme.chat.test', delivery_email: 'hamlet@acme.test', email_address_visibility: 3 }));

  it('keeps the dummy address through a change of the real one, and shows the new real one back under "everyone"', () => {
    expect(replayed(visibility(1, 4, 'user10@acme.chat.test'), moved)).toMatchObject({ email: 'user10@acme.chat.test', delivery_email: 'prince@acme.test' });
    expect(replayed(visibility(1, 4, 'user10@acme.chat.test'), moved, visibility(4, 1))).toMatchObject({ email: 'prince@acme.test', email_address_visibility: 1 });
  });

  it('never falls back to the real address, even for an event without its dummy address', () =>
    expect(replayed(visibility(1, 2))!.email).toBe('user10@localhost'));

  it('touches the user document for this setting', () => expect(usersProjection.idsOf(recorded([visibility(1, 3)])[0] as never)).toEqual(['10']));
});
