import { deciderSpec, userCreated, userDeactivated, userRoleChanged } from '@app/testing';
import {
  BotOwnerRequiredError,
  CannotDeactivateLastOwnerError,
  CannotDeactivateLastUserError,
  InsufficientPermissionError,
  MustBeOwnerError,
  DomainError,
  EmailAlreadyInUseError,
  InvalidEmailError,
  InvalidFullNameError,
  LastOwnerError,
  NoSuchUserError,
  UserAlreadyActiveError,
  UserAlreadyDeactivatedError,
  usersDecider,
  type UserEvent,
  type UsersCommand,
} from '@app/domain';

const given = deciderSpec(usersDecider);

const NOW = '2026-02-03T04:05:06.000Z';
const meta = { realmId: 1, actorId: 1 as number | null, now: NOW };

// Personas as events: desdemona owns the organization, iago administers it, hamlet is a member.
const desdemona = userCreated({ userId: 1, email: 'desdemona@acme.test', fullName: 'Desdemona', role: 'owner' });
const iago = userCreated({ userId: 2, email: 'iago@acme.test', fullName: 'Iago', role: 'administrator' });
const hamlet = userCreated({ userId: 10, email: 'hamlet@acme.test', fullName: 'King Hamlet', role: 'member' });
const organization = [desdemona, iago, hamlet];

// Command builders (commands carry the time, the new id and the secrets; decide never invents them).
type CreateUserData = Extract<UsersCommand, { type: 'CreateUser' }>['data'];
const createUser = (overrides: Partial<CreateUserData> = {}): UsersCommand => ({
  type: 'CreateUser',
  data: {
    ...meta, userId: 20, email: 'cordelia@acme.test', fullName: 'Cordelia Lear', role: 'member', isBot: false,
    botType: null, botOwnerId: null, apiKeyId: 'key-1', passwordId: 'password-1', timezone: 'Europe/London',
    ...overrides,
  },
});
// `by` is the acting user id (desdemona, the owner, unless stated); null is the operator at the command line.
type By = number | null;
const changeRole = (userId: number, role: CreateUserData['role'], by: By = 1): UsersCommand => ({ type: 'ChangeUserRole', data: { ...meta, actorId: by, userId, role } });
const changeFullName = (userId: number, fullName: string, by: By = 1): UsersCommand => ({ type: 'ChangeUserFullName', data: { ...meta, actorId: by, userId, fullName } });
const deactivate = (userId: number, by: By = 1): UsersCommand => ({ type: 'DeactivateUser', data: { ...meta, actorId: by, userId } });
const reactivate = (userId: number, by: By = 1): UsersCommand => ({ type: 'ReactivateUser', data: { ...meta, actorId: by, userId } });
const regenerateApiKey = (userId: number, apiKeyId: string, by: By = userId): UsersCommand => ({ type: 'RegenerateApiKey', data: { ...meta, actorId: by, userId, apiKeyId } });
const changePassword = (userId: number, passwordId: string, by: By = userId): UsersCommand => ({ type: 'ChangePassword', data: { ...meta, actorId: by, userId, passwordId } });
const userReactivated = (userId: number): UserEvent => ({ type: 'UserReactivated', data: { realmId: 1, userId, actorId: null, at: NOW } });

/** Runs decide over the given history and returns the thrown DomainError (fails if none is thrown). */
const errorOf = (history: UserEvent[], command: UsersCommand): DomainError => {
  try {
    given(history).when(command).events();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
};

describe('usersDecider', () => {
  describe('CreateUser', () => {
    it('records every fact of the new account, with the actor and the time of the command', () =>
      given(organization).when(createUser()).then([
        {
          type: 'UserCreated',
          data: {
            realmId: 1, userId: 20, email: 'cordelia@acme.test', fullName: 'Cordelia Lear', role: 'member', isBot: false,
            botType: null, botOwnerId: null, apiKeyId: 'key-1', passwordId: 'password-1', timezone: 'Europe/London',
            actorId: 1, at: NOW,
          },
        },
      ]));

    it('creates the first account of an empty organization (the operator acts with no actor id)', () =>
      given([]).when(createUser({ actorId: null, role: 'owner' })).thenMatches([
        { type: 'UserCreated', data: { userId: 20, role: 'owner', actorId: null } },
      ]));

    it('trims the email and the full name', () =>
      given(organization).when(createUser({ email: '  Cordelia@Acme.test \n', fullName: '  Cordelia Lear  ' })).thenMatches([
        { type: 'UserCreated', data: { email: 'Cordelia@Acme.test', fullName: 'Cordelia Lear' } },
      ]));

    it('rejects an email already in use, case-insensitively, with Zulip\'s message quoting the new address', () =>
      given(organization)
        .when(createUser({ email: ' HAMLET@acme.TEST ' }))
        .thenThrows(EmailAlreadyInUseError, "Email 'HAMLET@acme.TEST' already in use"));

    it('keeps the email of a deactivated account reserved', () =>
      given([...organization, userDeactivated(10)])
        .when(createUser({ email: 'hamlet@acme.test' }))
        .thenThrows(EmailAlreadyInUseError, "Email 'hamlet@acme.test' already in use"));

    it.each(['not-an-email', 'hamlet@', '@acme.test', 'ham let@acme.test', 'hamlet@acme', '', `${'x'.repeat(250)}@acme.test`])(
      'rejects the invalid email %j with "Bad name or username"',
      (email) => given(organization).when(createUser({ email })).thenThrows(InvalidEmailError, 'Bad name or username'),
    );

    it('accepts an email of exactly 254 characters', () => {
      const email = `${'x'.repeat(244)}@acme.test`;
      expect(email).toHaveLength(254);
      given([]).when(createUser({ email })).thenMatches([{ type: 'UserCreated', data: { email } }]);
    });

    describe('full name (Zulip check_full_name)', () => {
      it('accepts 100 characters, counting code points rather than UTF-16 units', () => {
        given([]).when(createUser({ fullName: 'a'.repeat(100) })).thenMatches([{ data: { fullName: 'a'.repeat(100) } }]);
        given([]).when(createUser({ fullName: '🎭'.repeat(100) })).thenMatches([{ data: { fullName: '🎭'.repeat(100) } }]);
      });

      it('rejects more than 100 characters with "Name too long!"', () =>
        given([]).when(createUser({ fullName: 'a'.repeat(101) })).thenThrows(InvalidFullNameError, 'Name too long!'));

      it.each(['', 'a', '   ', ' b '])('rejects %j with "Name too short!"', (fullName) =>
        given([]).when(createUser({ fullName })).thenThrows(InvalidFullNameError, 'Name too short!'));

      it.each(['Bob*', 'Bo`b', 'Bo\\b', 'Bob>', 'Bo"b', 'bob@home', 'Bo\u0000b', 'Bob\u0007', 'Bo\tb', 'Bob\u007f'])(
        'rejects %j with "Invalid characters in name!"',
        (fullName) => given([]).when(createUser({ fullName })).thenThrows(InvalidFullNameError, 'Invalid characters in name!'),
      );

      it('rejects C1 control characters such as U+0085 and U+009B like Zulip does', () => {
        given([]).when(createUser({ fullName: 'Bob\u0085Smith' })).thenThrows(InvalidFullNameError, 'Invalid characters in name!');
        given([]).when(createUser({ fullName: 'Bob\u009b31m' })).thenThrows(InvalidFullNameError, 'Invalid characters in name!');
      });

      it.each(['Hamlet|123', 'Hamlet |7', '  Hamlet|42  '])('rejects the mention-disambiguation shape %j with "Invalid format!"', (fullName) =>
        given([]).when(createUser({ fullName })).thenThrows(InvalidFullNameError, 'Invalid format!'));

      it('accepts a "|" that is not a trailing id', () =>
        given([]).when(createUser({ fullName: 'A|B 12' })).thenMatches([{ data: { fullName: 'A|B 12' } }]));

      it('checks the length before the characters, as Zulip does', () =>
        given([]).when(createUser({ fullName: '@'.repeat(101) })).thenThrows(InvalidFullNameError, 'Name too long!'));
    });

    describe('bots', () => {
      it('records a bot with its owner and type', () =>
        given(organization)
          .when(createUser({ email: 'bot@acme.test', fullName: 'Deploy bot', isBot: true, botType: 'incoming_webhook', botOwnerId: 10, passwordId: null }))
          .thenMatches([{ type: 'UserCreated', data: { isBot: true, botType: 'incoming_webhook', botOwnerId: 10, passwordId: null } }]));

      it('defaults a bot\'s type to generic', () =>
        given(organization)
          .when(createUser({ email: 'bot@acme.test', fullName: 'Deploy bot', isBot: true, botType: null, botOwnerId: 10 }))
          .thenMatches([{ data: { botType: 'generic' } }]));

      it('drops bot fields from a human account', () =>
        given(organization)
          .when(createUser({ isBot: false, botType: 'generic', botOwnerId: 10 }))
          .thenMatches([{ data: { isBot: false, botType: null, botOwnerId: null } }]));

      it('requires an owner', () =>
        given(organization)
          .when(createUser({ email: 'bot@acme.test', fullName: 'Deploy bot', isBot: true, botOwnerId: null }))
          .thenThrows(BotOwnerRequiredError, 'Bots must have an owner'));

      it('requires the owner to exist in the organization', () => {
        given(organization)
          .when(createUser({ email: 'bot@acme.test', fullName: 'Deploy bot', isBot: true, botOwnerId: 99 }))
          .thenThrows(NoSuchUserError, 'No such user');
        expect(errorOf(organization, createUser({ email: 'bot@acme.test', fullName: 'Deploy bot', isBot: true, botOwnerId: 99 })).httpStatus).toBe(400);
      });
    });
  });

  describe('ChangeUserRole', () => {
    it('records the old and the new role', () =>
      given(organization).when(changeRole(10, 'moderator')).then([
        { type: 'UserRoleChanged', data: { realmId: 1, userId: 10, oldRole: 'member', newRole: 'moderator', actorId: 1, at: NOW } },
      ]));

    it('takes the current role from the history', () =>
      given([...organization, userRoleChanged(10, 'member', 'guest')])
        .when(changeRole(10, 'administrator'))
        .thenMatches([{ data: { oldRole: 'guest', newRole: 'administrator' } }]));

    it('is a no-op when the role does not change', () => given(organization).when(changeRole(2, 'administrator')).thenNothingHappened());

    it('refuses to demote the only owner, with Zulip\'s exact message', () => {
      given(organization)
        .when(changeRole(1, 'administrator'))
        .thenThrows(LastOwnerError, 'The owner permission cannot be removed from the only organization owner.');
      expect(errorOf(organization, changeRole(1, 'member'))).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    });

    it('lets one of two owners be demoted', () =>
      given([...organization, userRoleChanged(2, 'administrator', 'owner')])
        .when(changeRole(1, 'member'))
        .thenMatches([{ type: 'UserRoleChanged', data: { userId: 1, oldRole: 'owner', newRole: 'member' } }]));

    it('does not count a deactivated owner as the second owner', () =>
      given([...organization, userRoleChanged(2, 'administrator', 'owner'), userDeactivated(2)])
        .when(changeRole(1, 'member'))
        .thenThrows(LastOwnerError));

    it('lets a deactivated owner be demoted (they no longer hold the organization)', () =>
      given([...organization, userRoleChanged(2, 'administrator', 'owner'), userDeactivated(2)])
        .when(changeRole(2, 'member'))
        .thenMatches([{ data: { userId: 2, oldRole: 'owner', newRole: 'member' } }]));

    it('promotes to owner', () =>
      given(organization).when(changeRole(10, 'owner')).thenMatches([{ data: { oldRole: 'member', newRole: 'owner' } }]));

    it('rejects an unknown user', () => given(organization).when(changeRole(99, 'member')).thenThrows(NoSuchUserError, 'No such user'));

    it('only owners grant or remove the owner role; members change no roles', () => {
      given(organization).when(changeRole(10, 'owner', 2)).thenThrows(MustBeOwnerError, 'Must be an organization owner');
      given(organization).when(changeRole(1, 'member', 2)).thenThrows(MustBeOwnerError);
      given(organization).when(changeRole(2, 'member', 10)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
    });

    it('an administrator changes non-owner roles; the operator changes any', () => {
      given(organization).when(changeRole(10, 'moderator', 2)).thenMatches([{ data: { userId: 10, newRole: 'moderator', actorId: 2 } }]);
      given([...organization, userRoleChanged(2, 'administrator', 'owner')]).when(changeRole(1, 'member', null)).thenMatches([{ data: { userId: 1, actorId: null } }]);
    });

    it('a deactivated administrator has no privileges left', () =>
      given([...organization, userDeactivated(2)]).when(changeRole(10, 'moderator', 2)).thenThrows(InsufficientPermissionError));

    it('lets a bot with the owner role be demoted while a human owner remains (Zulip check_last_owner counts humans)', () =>
      given([...organization, userCreated({ userId: 30, email: 'bot@acme.test', fullName: 'Owner bot', role: 'owner', isBot: true, botType: 'generic', botOwnerId: 1 })])
        .when(changeRole(30, 'member'))
        .thenMatches([{ type: 'UserRoleChanged', data: { userId: 30, oldRole: 'owner', newRole: 'member' } }]));

    it('still protects the human owner when a bot also holds the owner role', () =>
      given([...organization, userCreated({ userId: 30, email: 'bot@acme.test', fullName: 'Owner bot', role: 'owner', isBot: true, botType: 'generic', botOwnerId: 1 })])
        .when(changeRole(1, 'member'))
        .thenThrows(LastOwnerError));
  });

  describe('DeactivateUser', () => {
    it('records the deactivation', () =>
      given(organization).when(deactivate(10)).then([{ type: 'UserDeactivated', data: { realmId: 1, userId: 10, actorId: 1, at: NOW } }]));

    it('refuses to deactivate the only owner (a plain BAD_REQUEST, as Zulip\'s deactivate_user_backend)', () => {
      given(organization).when(deactivate(1, null)).thenThrows(CannotDeactivateLastOwnerError, 'Cannot deactivate the only organization owner');
      expect(errorOf(organization, deactivate(1, null))).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    });

    it('refuses the only owner deactivating their own account (deactivate_user_own_backend), saying so in the body', () => {
      const error = errorOf(organization, deactivate(1, 1));
      expect(error).toBeInstanceOf(CannotDeactivateLastUserError);
      expect(error).toMatchObject({
        message: 'Cannot deactivate the only organization owner.',
        code: 'CANNOT_DEACTIVATE_LAST_USER',
        extra: { is_last_owner: true, entity: 'organization owner' },
      });
    });

    it('refuses the only user of an organization deactivating themselves', () => {
      const error = errorOf([hamlet], deactivate(10, 10));
      expect(error).toMatchObject({ message: 'Cannot deactivate the only user.', code: 'CANNOT_DEACTIVATE_LAST_USER', extra: { is_last_owner: false } });
    });

    it('lets a member deactivate their own account', () =>
      given(organization).when(deactivate(10, 10)).thenMatches([{ type: 'UserDeactivated', data: { userId: 10, actorId: 10 } }]));

    it('only owners may deactivate an owner; members may not deactivate others', () => {
      given([...organization, userRoleChanged(2, 'administrator', 'owner'), userCreated({ userId: 3, email: 'shiva@acme.test', fullName: 'Shiva', role: 'administrator' })])
        .when(deactivate(1, 3))
        .thenThrows(MustBeOwnerError, 'Must be an organization owner');
      given(organization).when(deactivate(2, 10)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
    });

    it('deactivating a user deactivates their active bots in the same decision', () =>
      given([...organization, userCreated({ userId: 31, email: 'bot@acme.test', fullName: 'Hamlet bot', isBot: true, botType: 'generic', botOwnerId: 10 })])
        .when(deactivate(10))
        .thenMatches([
          { type: 'UserDeactivated', data: { userId: 31 } },
          { type: 'UserDeactivated', data: { userId: 10 } },
        ]));

    it('deactivates one of two owners', () =>
      given([...organization, userRoleChanged(2, 'administrator', 'owner')]).when(deactivate(1)).thenMatches([{ type: 'UserDeactivated', data: { userId: 1 } }]));

    it('after one of two owners is deactivated, the other is the last one', () =>
      given([...organization, userRoleChanged(2, 'administrator', 'owner'), userDeactivated(1)])
        .when(deactivate(2, null))
        .thenThrows(CannotDeactivateLastOwnerError));

    it('deactivates a bot with the owner role while a human owner remains', () =>
      given([...organization, userCreated({ userId: 30, email: 'bot@acme.test', fullName: 'Owner bot', role: 'owner', isBot: true, botType: 'generic', botOwnerId: 1 })])
        .when(deactivate(30))
        .thenMatches([{ type: 'UserDeactivated', data: { userId: 30 } }]));

    it('refuses an account that is already deactivated', () =>
      given([...organization, userDeactivated(10)]).when(deactivate(10)).thenThrows(UserAlreadyDeactivatedError, 'User is already deactivated'));

    it('rejects an unknown user with Zulip\'s plain 400', () => {
      given(organization).when(deactivate(99)).thenThrows(NoSuchUserError, 'No such user');
      expect(errorOf(organization, deactivate(99)).httpStatus).toBe(400);
    });
  });

  describe('ReactivateUser', () => {
    it('reactivates a deactivated account', () =>
      given([...organization, userDeactivated(10)]).when(reactivate(10)).then([
        { type: 'UserReactivated', data: { realmId: 1, userId: 10, actorId: 1, at: NOW } },
      ]));

    it('refuses an active account', () => given(organization).when(reactivate(10)).thenThrows(UserAlreadyActiveError, 'User is already active'));

    it('an account deactivated and reactivated can be deactivated again', () =>
      given([...organization, userDeactivated(10), userReactivated(10)]).when(deactivate(10)).thenMatches([{ type: 'UserDeactivated' }]));

    it('a reactivated owner counts as an owner again', () =>
      given([...organization, userRoleChanged(2, 'administrator', 'owner'), userDeactivated(2), userReactivated(2)])
        .when(deactivate(1))
        .thenMatches([{ type: 'UserDeactivated', data: { userId: 1 } }]));

    it('rejects an unknown user', () => given(organization).when(reactivate(99)).thenThrows(NoSuchUserError));
  });

  describe('ChangeUserFullName', () => {
    it('records the old and the new (trimmed) name', () =>
      given(organization).when(changeFullName(10, '  Prince Hamlet ')).then([
        { type: 'UserFullNameChanged', data: { realmId: 1, userId: 10, oldName: 'King Hamlet', newName: 'Prince Hamlet', actorId: 1, at: NOW } },
      ]));

    it('is a no-op when the trimmed name is unchanged', () => given(organization).when(changeFullName(10, ' King Hamlet ')).thenNothingHappened());

    it('takes the old name from the latest change', () =>
      given([...organization, { type: 'UserFullNameChanged', data: { realmId: 1, userId: 10, oldName: 'King Hamlet', newName: 'Hamlet', actorId: null, at: NOW } }])
        .when(changeFullName(10, 'Ham'))
        .thenMatches([{ data: { oldName: 'Hamlet', newName: 'Ham' } }]));

    it('applies the full-name rules', () => {
      given(organization).when(changeFullName(10, 'x')).thenThrows(InvalidFullNameError, 'Name too short!');
      given(organization).when(changeFullName(10, 'y'.repeat(101))).thenThrows(InvalidFullNameError, 'Name too long!');
      given(organization).when(changeFullName(10, 'Hamlet*')).thenThrows(InvalidFullNameError, 'Invalid characters in name!');
      given(organization).when(changeFullName(10, 'Hamlet|10')).thenThrows(InvalidFullNameError, 'Invalid format!');
    });

    it('rejects an unknown user', () => given(organization).when(changeFullName(99, 'Nobody')).thenThrows(NoSuchUserError));
  });

  describe('RegenerateApiKey', () => {
    it('records that the key changed (the credential store entry the handler wrote, never the key), for the user\'s own account', () =>
      given(organization).when(regenerateApiKey(10, 'key-2')).then([
        { type: 'UserApiKeyRegenerated', data: { realmId: 1, userId: 10, apiKeyId: 'key-2', actorId: 10, at: NOW } },
      ]));

    it('lets the operator regenerate any key, and a bot\'s owner the bot\'s key', () => {
      given(organization).when(regenerateApiKey(10, 'key-2', null)).thenMatches([{ data: { userId: 10, actorId: null } }]);
      given([...organization, userCreated({ userId: 31, email: 'bot@acme.test', fullName: 'Hamlet bot', isBot: true, botType: 'generic', botOwnerId: 10 })])
        .when(regenerateApiKey(31, 'key-2', 10))
        .thenMatches([{ data: { userId: 31, actorId: 10 } }]);
    });

    it('does not let anyone else regenerate a human\'s key, not even an administrator', () =>
      given(organization).when(regenerateApiKey(10, 'key-2', 2)).thenThrows(InsufficientPermissionError));

    it('rejects an unknown user', () => given(organization).when(regenerateApiKey(99, 'key-2')).thenThrows(NoSuchUserError));
  });

  describe('ChangePassword', () => {
    it('records that the password changed (the credential store entry, never the hash)', () =>
      given(organization).when(changePassword(10, 'password-2')).then([
        { type: 'UserPasswordChanged', data: { realmId: 1, userId: 10, passwordId: 'password-2', actorId: 10, at: NOW } },
      ]));

    it('rejects an unknown user', () => given(organization).when(changePassword(99, 'password-2')).thenThrows(NoSuchUserError));
  });

  describe('evolve', () => {
    it('ignores events about users it does not know, and events of other types', () => {
      const state = usersDecider.initialState();
      expect(usersDecider.evolve(state, userDeactivated(5))).toEqual(state);
      expect(usersDecider.evolve(state, { type: 'SomethingElse', data: {} } as unknown as UserEvent)).toEqual(state);
    });

    it('does not mutate the previous state', () => {
      const before = usersDecider.evolve(usersDecider.initialState(), hamlet);
      const snapshot = structuredClone(before);
      usersDecider.evolve(before, userDeactivated(10));
      usersDecider.evolve(before, userCreated({ userId: 11, email: 'other@acme.test' }));
      expect(before).toEqual(snapshot);
    });
  });
});
