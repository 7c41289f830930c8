import type { Decider } from '../shared/decider';
import type { Role } from '../shared/actor';
import type { BotType, UserEvent } from './users.events';
import {
  BotOwnerRequiredError,
  CannotDeactivateLastOwnerError,
  EmailAlreadyInUseError,
  LastOwnerError,
  NoSuchUserError,
  UserAlreadyActiveError,
  UserAlreadyDeactivatedError,
} from './users.errors';
import { checkEmail, checkFullName, normalizeEmail } from './users.rules';

type Meta = { realmId: number; actorId: number | null; now: string };

export type CreateUser = {
  type: 'CreateUser';
  data: Meta & {
    userId: number; // allocated by the handler: user ids are unique across the server
    email: string;
    fullName: string;
    role: Role;
    isBot: boolean;
    botType: BotType | null;
    botOwnerId: number | null;
    apiKey: string;
    passwordHash: string | null;
    timezone: string;
  };
};
export type ChangeUserRole = { type: 'ChangeUserRole'; data: Meta & { userId: number; role: Role } };
export type ChangeUserFullName = { type: 'ChangeUserFullName'; data: Meta & { userId: number; fullName: string } };
export type DeactivateUser = { type: 'DeactivateUser'; data: Meta & { userId: number } };
export type ReactivateUser = { type: 'ReactivateUser'; data: Meta & { userId: number } };
export type RegenerateApiKey = { type: 'RegenerateApiKey'; data: Meta & { userId: number; apiKey: string } };
export type ChangePassword = { type: 'ChangePassword'; data: Meta & { userId: number; passwordHash: string } };

export type UsersCommand =
  | CreateUser
  | ChangeUserRole
  | ChangeUserFullName
  | DeactivateUser
  | ReactivateUser
  | RegenerateApiKey
  | ChangePassword;

type UserState = { email: string; fullName: string; role: Role; isActive: boolean; isBot: boolean };
export type UsersDirectory = { users: Record<number, UserState>; userIdByEmail: Record<string, number> };

const activeOwnerCount = (state: UsersDirectory) =>
  Object.values(state.users).filter((u) => u.isActive && !u.isBot && u.role === 'owner').length;

const mustExist = (state: UsersDirectory, userId: number): UserState => {
  const user = state.users[userId];
  if (!user) throw new NoSuchUserError();
  return user;
};

export const usersDecider: Decider<UsersCommand, UserEvent, UsersDirectory> = {
  initialState: () => ({ users: {}, userIdByEmail: {} }),

  decide: (command, state) => {
    const { realmId, actorId, now: at } = command.data;
    switch (command.type) {
      case 'CreateUser': {
        const d = command.data;
        const email = checkEmail(d.email);
        const fullName = checkFullName(d.fullName);
        if (state.userIdByEmail[normalizeEmail(email)] !== undefined) throw new EmailAlreadyInUseError(email);
        if (d.isBot && d.botOwnerId === null) throw new BotOwnerRequiredError();
        if (d.isBot && d.botOwnerId !== null) mustExist(state, d.botOwnerId);
        return [
          {
            type: 'UserCreated',
            data: {
              realmId, userId: d.userId, email, fullName, role: d.role, isBot: d.isBot,
              botType: d.isBot ? (d.botType ?? 'generic') : null, botOwnerId: d.isBot ? d.botOwnerId : null,
              apiKey: d.apiKey, passwordHash: d.passwordHash, timezone: d.timezone, actorId, at,
            },
          },
        ];
      }
      case 'ChangeUserRole': {
        const { userId, role } = command.data;
        const user = mustExist(state, userId);
        if (user.role === role) return [];
        if (user.role === 'owner' && user.isActive && activeOwnerCount(state) <= 1) throw new LastOwnerError();
        return [{ type: 'UserRoleChanged', data: { realmId, userId, oldRole: user.role, newRole: role, actorId, at } }];
      }
      case 'ChangeUserFullName': {
        const { userId } = command.data;
        const user = mustExist(state, userId);
        const fullName = checkFullName(command.data.fullName);
        if (user.fullName === fullName) return [];
        return [{ type: 'UserFullNameChanged', data: { realmId, userId, oldName: user.fullName, newName: fullName, actorId, at } }];
      }
      case 'DeactivateUser': {
        const { userId } = command.data;
        const user = mustExist(state, userId);
        if (!user.isActive) throw new UserAlreadyDeactivatedError();
        if (user.role === 'owner' && !user.isBot && activeOwnerCount(state) <= 1) throw new CannotDeactivateLastOwnerError();
        return [{ type: 'UserDeactivated', data: { realmId, userId, actorId, at } }];
      }
      case 'ReactivateUser': {
        const { userId } = command.data;
        const user = mustExist(state, userId);
        if (user.isActive) throw new UserAlreadyActiveError();
        return [{ type: 'UserReactivated', data: { realmId, userId, actorId, at } }];
      }
      case 'RegenerateApiKey': {
        const { userId, apiKey } = command.data;
        mustExist(state, userId);
        return [{ type: 'UserApiKeyRegenerated', data: { realmId, userId, apiKey, actorId, at } }];
      }
      case 'ChangePassword': {
        const { userId, passwordHash } = command.data;
        mustExist(state, userId);
        return [{ type: 'UserPasswordChanged', data: { realmId, userId, passwordHash, actorId, at } }];
      }
    }
  },

  evolve: (state, event) => {
    const update = (userId: number, patch: Partial<UserState>): UsersDirectory => {
      const user = state.users[userId];
      return user ? { ...state, users: { ...state.users, [userId]: { ...user, ...patch } } } : state;
    };
    switch (event.type) {
      case 'UserCreated': {
        const d = event.data;
        return {
          users: { ...state.users, [d.userId]: { email: d.email, fullName: d.fullName, role: d.role, isActive: true, isBot: d.isBot } },
          userIdByEmail: { ...state.userIdByEmail, [normalizeEmail(d.email)]: d.userId },
        };
      }
      case 'UserRoleChanged':
        return update(event.data.userId, { role: event.data.newRole });
      case 'UserFullNameChanged':
        return update(event.data.userId, { fullName: event.data.newName });
      case 'UserDeactivated':
        return update(event.data.userId, { isActive: false });
      case 'UserReactivated':
        return update(event.data.userId, { isActive: true });
      default:
        return state;
    }
  },
};
