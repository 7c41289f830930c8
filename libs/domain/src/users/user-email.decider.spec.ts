import { deciderSpec, userCreated, userDeactivated } from '@app/testing';
import { EmailTakenError, NoSuchUserError, UserIsDeactivatedError, foldEvents, usersDecider, type UsersCommand } from '@app/domain';

const given = deciderSpec(usersDecider);
const NOW = '2026-02-03T04:05:06.000Z';
const hamlet = userCreated({ userId: 10, email: 'hamlet@acme.test' });
const cordelia = userCreated({ userId: 11, email: 'cordelia@acme.test', fullName: 'Cordelia' });
const changeEmail = (newEmail: string, userId = 10): UsersCommand => ({ type: 'ChangeUserEmail', data: { realmId: 1, actorId: userId, now: NOW, userId, newEmail } });

describe('usersDecider: ChangeUserEmail (a confirmed change of address)', () => {
  it('records the old and new address', () =>
    given([hamlet]).when(changeEmail('prince@acme.test')).then([
      { type: 'UserEmailChanged', data: { realmId: 1, userId: 10, oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', actorId: 10, at: NOW } },
    ]));

  it('refuses an address another account has, active or not', () => {
    given([hamlet, cordelia]).when(changeEmail('Cordelia@acme.test')).thenThrows(EmailTakenError, 'Already has an account.');
    given([hamlet, cordelia, userDeactivated(11)]).when(changeEmail('cordelia@acme.test')).thenThrows(EmailTakenError, 'Account has been deactivated.');
  });

  it('counts one\'s own address in other case as taken, as Zulip does', () =>
    given([hamlet]).when(changeEmail('Hamlet@acme.test')).thenThrows(EmailTakenError, 'Already has an account.'));

  it('does nothing when the address is already the account\'s', () => given([hamlet]).when(changeEmail('hamlet@acme.test')).thenNothingHappened());

  it('refuses unknown and deactivated accounts', () => {
    given([hamlet]).when(changeEmail('x@acme.test', 99)).thenThrows(NoSuchUserError);
    given([hamlet, userDeactivated(10)]).when(changeEmail('x@acme.test')).thenThrows(UserIsDeactivatedError);
  });

  it('frees the old address and takes the new one', () => {
    const events = [hamlet, ...usersDecider.decide(changeEmail('prince@acme.test'), foldEvents(usersDecider, [hamlet]))];
    const state = foldEvents(usersDecider, events);
    expect(state.users[10].email).toBe('prince@acme.test');
    expect(state.userIdByEmail).toEqual({ 'prince@acme.test': 10 });
    given(events).when(changeEmail('hamlet@acme.test')).thenMatches([{ data: { oldEmail: 'prince@acme.test', newEmail: 'hamlet@acme.test' } }]);
  });
});
