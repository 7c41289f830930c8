import { deciderSpec, userCreated, userDeactivated, userRoleChanged } from '@app/testing';
import {
  CannotDeactivateLastOwnerError,
  CannotDeactivateLastUserError,
  DomainError,
  InsufficientPermissionError,
  LastOwnerError,
  MustBeAdministratorError,
  MustBeOwnerError,
  type Role,
  type UserEvent,
  type UsersCommand,
  UserAlreadyDeactivatedError,
  usersDecider,
} from '@app/domain';

const given = deciderSpec(usersDecider);
const NOW = '2026-03-02T08:00:00.000Z';

const DESDEMONA = 1, IAGO = 2, SHIVA = 3, HAMLET = 4, CORDELIA = 5, POLONIUS = 6;
const organization: UserEvent[] = [
  userCreated({ userId: DESDEMONA, email: 'desdemona@acme.test', fullName: 'Desdemona', role: 'owner' }),
  userCreated({ userId: IAGO, email: 'iago@acme.test', fullName: 'Iago', role: 'administrator' }),
  userCreated({ userId: SHIVA, email: 'shiva@acme.test', fullName: 'Shiva', role: 'moderator' }),
  userCreated({ userId: HAMLET, email: 'hamlet@acme.test', fullName: 'King Hamlet', role: 'member' }),
  userCreated({ userId: CORDELIA, email: 'cordelia@acme.test', fullName: 'Cordelia Lear', role: 'member' }),
  userCreated({ userId: POLONIUS, email: 'polonius@acme.test', fullName: 'Polonius', role: 'guest' }),
];
const hamletsBot = userCreated({
  userId: 20, email: 'helper-bot@acme.test', fullName: 'Helper', role: 'member', isBot: true, botType: 'generic', botOwnerId: HAMLET,
});

type By = number | null;
type Target = 'user' | 'bot' | 'self' | 'any';
const changeRole = (userId: number, role: Role, by: By): UsersCommand => ({ type: 'ChangeUserRole', data: { realmId: 1, actorId: by, now: NOW, userId, role } });
const deactivate = (userId: number, by: By, target?: Target): UsersCommand => ({
  type: 'DeactivateUser', data: { realmId: 1, actorId: by, now: NOW, userId, ...(target ? { target } : {}) },
});
const reactivate = (userId: number, by: By): UsersCommand => ({ type: 'ReactivateUser', data: { realmId: 1, actorId: by, now: NOW, userId } });
const rename = (userId: number, fullName: string, by: By): UsersCommand => ({ type: 'ChangeUserFullName', data: { realmId: 1, actorId: by, now: NOW, userId, fullName } });
const regenerate = (userId: number, by: By): UsersCommand => ({ type: 'RegenerateApiKey', data: { realmId: 1, actorId: by, now: NOW, userId, apiKeyId: 'key-2' } });
const roleChanged = (userId: number, oldRole: Role, newRole: Role, actorId: By): UserEvent => ({
  type: 'UserRoleChanged', data: { realmId: 1, userId, oldRole, newRole, actorId, at: NOW },
});
const deactivated = (userId: number, actorId: By): UserEvent => ({ type: 'UserDeactivated', data: { realmId: 1, userId, actorId, at: NOW } });

const errorOf = (history: UserEvent[], command: UsersCommand): DomainError => {
  try {
    given(history).when(command).events();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
};

describe('users decider: administration', () => {
  describe('ChangeUserRole (PATCH /users/{user_id} role)', () => {
    it('lets an administrator make a member a moderator, with the old and new role', () =>
      given(organization).when(changeRole(HAMLET, 'moderator', IAGO)).then([roleChanged(HAMLET, 'member', 'moderator', IAGO)]));

    it('only owners grant the owner role: "Must be an organization owner" (UNAUTHORIZED_PRINCIPAL)', () => {
      const error = errorOf(organization, changeRole(HAMLET, 'owner', IAGO));
      expect(error).toBeInstanceOf(MustBeOwnerError);
      expect({ msg: error.message, code: error.code, status: error.httpStatus }).toEqual({
        msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL', status: 400,
      });
    });

    it('only owners revoke the owner role, even when another owner remains', () =>
      given([...organization, roleChanged(IAGO, 'administrator', 'owner', DESDEMONA), roleChanged(SHIVA, 'moderator', 'administrator', DESDEMONA)])
        .when(changeRole(DESDEMONA, 'member', SHIVA)).thenThrows(MustBeOwnerError, 'Must be an organization owner'));

    it('an administrator may not demote an owner', () =>
      given(organization).when(changeRole(DESDEMONA, 'administrator', IAGO)).thenThrows(MustBeOwnerError, 'Must be an organization owner'));

    it('an owner grants the owner role', () =>
      given(organization).when(changeRole(IAGO, 'owner', DESDEMONA)).then([roleChanged(IAGO, 'administrator', 'owner', DESDEMONA)]));

    it('members may not change other users\' roles: "Insufficient permission"', () =>
      given(organization).when(changeRole(CORDELIA, 'guest', HAMLET)).thenThrows(InsufficientPermissionError, 'Insufficient permission'));

    it('a bot\'s owner who is not an administrator: "Must be an organization administrator"', () =>
      given([...organization, hamletsBot]).when(changeRole(20, 'guest', HAMLET)).thenThrows(MustBeAdministratorError, 'Must be an organization administrator'));

    it('keeps the last owner: "The owner permission cannot be removed from the only organization owner."', () =>
      given(organization).when(changeRole(DESDEMONA, 'administrator', DESDEMONA))
        .thenThrows(LastOwnerError, 'The owner permission cannot be removed from the only organization owner.'));

    it('lets one of two owners step down', () =>
      given([...organization, userRoleChanged(IAGO, 'administrator', 'owner')]).when(changeRole(DESDEMONA, 'administrator', DESDEMONA))
        .thenMatches([{ type: 'UserRoleChanged', data: { userId: DESDEMONA, newRole: 'administrator' } }]));

    it('a bot with the owner role is not the last owner', () =>
      given([...organization, hamletsBot, userRoleChanged(20, 'member', 'owner')]).when(changeRole(20, 'member', DESDEMONA))
        .thenMatches([{ type: 'UserRoleChanged', data: { userId: 20, newRole: 'member' } }]));

    it('takes privileges from the directory: a demoted or deactivated administrator has none', () => {
      given([...organization, userRoleChanged(IAGO, 'administrator', 'member')]).when(changeRole(HAMLET, 'moderator', IAGO))
        .thenThrows(InsufficientPermissionError);
      given([...organization, userDeactivated(IAGO, 1)]).when(changeRole(HAMLET, 'moderator', IAGO)).thenThrows(InsufficientPermissionError);
    });

    it('the operator may do anything but remove the last owner', () => {
      given(organization).when(changeRole(HAMLET, 'owner', null)).then([roleChanged(HAMLET, 'member', 'owner', null)]);
      given(organization).when(changeRole(DESDEMONA, 'member', null)).thenThrows(LastOwnerError);
    });

    it('is a no-op when the role is unchanged', () => given(organization).when(changeRole(HAMLET, 'member', HAMLET)).thenNothingHappened());
  });

  describe('DeactivateUser by an administrator (DELETE /users/{user_id})', () => {
    it('deactivates a member', () => given(organization).when(deactivate(HAMLET, IAGO, 'user')).then([deactivated(HAMLET, IAGO)]));

    it('only owners deactivate owners: "Must be an organization owner"', () =>
      given([...organization, userRoleChanged(IAGO, 'administrator', 'owner'), userRoleChanged(SHIVA, 'moderator', 'administrator')])
        .when(deactivate(IAGO, SHIVA, 'user')).thenThrows(MustBeOwnerError, 'Must be an organization owner'));

    it('keeps the only owner: "Cannot deactivate the only organization owner"', () =>
      given(organization).when(deactivate(DESDEMONA, null, 'user')).thenThrows(CannotDeactivateLastOwnerError, 'Cannot deactivate the only organization owner'));

    it('refuses members: "Insufficient permission"', () =>
      given(organization).when(deactivate(CORDELIA, HAMLET, 'user')).thenThrows(InsufficientPermissionError, 'Insufficient permission'));

    it('refuses a deactivated account', () =>
      given([...organization, userDeactivated(HAMLET, 1)]).when(deactivate(HAMLET, IAGO, 'user')).thenThrows(UserAlreadyDeactivatedError));

    it('an administrator may use the endpoint on themselves, under administrator rules', () =>
      given(organization).when(deactivate(IAGO, IAGO, 'user')).then([deactivated(IAGO, IAGO)]));
  });

  describe('DeactivateUser on oneself (DELETE /users/me)', () => {
    it('deactivates the user and their bots', () =>
      given([...organization, hamletsBot]).when(deactivate(HAMLET, HAMLET, 'self')).then([deactivated(20, HAMLET), deactivated(HAMLET, HAMLET)]));

    it('the only owner: "Cannot deactivate the only organization owner." (CANNOT_DEACTIVATE_LAST_USER)', () => {
      const error = errorOf(organization, deactivate(DESDEMONA, DESDEMONA, 'self'));
      expect(error).toBeInstanceOf(CannotDeactivateLastUserError);
      expect({ msg: error.message, code: error.code, extra: error.extra }).toEqual({
        msg: 'Cannot deactivate the only organization owner.',
        code: 'CANNOT_DEACTIVATE_LAST_USER',
        extra: { is_last_owner: true, entity: 'organization owner' },
      });
    });

    it('the only active account: "Cannot deactivate the only user."', () => {
      const error = errorOf([organization[3]], deactivate(HAMLET, HAMLET, 'self'));
      expect({ msg: error.message, code: error.code, extra: error.extra }).toEqual({
        msg: 'Cannot deactivate the only user.', code: 'CANNOT_DEACTIVATE_LAST_USER', extra: { is_last_owner: false, entity: 'user' },
      });
    });

    it('applies self rules by default when the actor is the target', () =>
      given(organization).when(deactivate(DESDEMONA, DESDEMONA)).thenThrows(CannotDeactivateLastUserError));

    it('`self` must be the actor\'s own account', () =>
      given(organization).when(deactivate(HAMLET, IAGO, 'self')).thenThrows(InsufficientPermissionError));
  });

  describe('ReactivateUser', () => {
    it('an administrator reactivates a user; their bots stay deactivated', () =>
      given([...organization, hamletsBot, deactivated(20, IAGO), deactivated(HAMLET, IAGO)]).when(reactivate(HAMLET, IAGO))
        .then([{ type: 'UserReactivated', data: { realmId: 1, userId: HAMLET, actorId: IAGO, at: NOW } }]));

    it('members may not: "Insufficient permission"', () =>
      given([...organization, userDeactivated(CORDELIA, 1)]).when(reactivate(CORDELIA, HAMLET)).thenThrows(InsufficientPermissionError));
  });

  describe('ChangeUserFullName and RegenerateApiKey', () => {
    it('users rename themselves; administrators rename anyone; members nobody else', () => {
      given(organization).when(rename(HAMLET, 'Prince Hamlet', HAMLET)).thenMatches([{ type: 'UserFullNameChanged', data: { oldName: 'King Hamlet', newName: 'Prince Hamlet' } }]);
      given(organization).when(rename(HAMLET, 'Prince Hamlet', IAGO)).thenMatches([{ type: 'UserFullNameChanged' }]);
      given(organization).when(rename(CORDELIA, 'Goneril', HAMLET)).thenThrows(InsufficientPermissionError);
    });

    it('humans may share a name (only bots must not take one in use)', () =>
      given(organization).when(rename(HAMLET, 'Iago', HAMLET)).thenMatches([{ type: 'UserFullNameChanged', data: { newName: 'Iago' } }]));

    it('users regenerate their own key; nobody regenerates another human\'s key except the operator', () => {
      given(organization).when(regenerate(HAMLET, HAMLET)).thenMatches([{ type: 'UserApiKeyRegenerated', data: { userId: HAMLET } }]);
      given(organization).when(regenerate(HAMLET, null)).thenMatches([{ type: 'UserApiKeyRegenerated' }]);
      given(organization).when(regenerate(HAMLET, IAGO)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
    });
  });
});
