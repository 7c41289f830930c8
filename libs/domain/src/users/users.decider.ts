import type { Decider } from '../shared/decider';
import type { Role } from '../shared/actor';
import { MustBeAdministratorError, MustBeOwnerError } from '../shared/domain-error';
import { BOT_TYPE_VALUES, type BotType, type UserDeactivated, type UserEvent } from './users.events';
import {
  BotCannotOwnBotError,
  BotNameInUseError,
  BotNameInUseOnReactivationError,
  BotOwnerRequiredError,
  CannotDeactivateLastOwnerError,
  CannotDeactivateLastUserError,
  ChangeBotOwnerError,
  EmailAlreadyInUseError,
  InsufficientPermissionError,
  InvalidBotTypeError,
  LastOwnerError,
  NoSuchBotError,
  NoSuchUserError,
  UserAlreadyActiveError,
  UserAlreadyDeactivatedError,
  UserIsDeactivatedError,
  UsernameAlreadyInUseError,
} from './users.errors';
import { botEmail, checkEmail, checkFullName, checkShortName, normalizeEmail } from './users.rules';
import type { ChangeUserEmail } from './user-email.command';
import { EmailTakenError } from '../settings/settings.errors';

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
    /** The credential store's entries the handler wrote (never the secrets themselves). */
    apiKeyId: string;
    passwordId: string | null;
    timezone: string;
  };
};
export type ChangeUserRole = { type: 'ChangeUserRole'; data: Meta & { userId: number; role: Role } };
/**
 * Names of the organization's active humans, from the read models: since humans' renames live on
 * their own `user_profile-<userId>` streams (users.streams.ts), the directory's copy of a human's
 * name is the one from before; the rules about bot names ("a bot's name is unique among active
 * accounts") take the current ones from here. Absent (older callers, the operator's tools), the
 * directory's copy is used.
 */
type HumanNames = { activeHumanNames?: readonly string[] };
export type ChangeUserFullName = { type: 'ChangeUserFullName'; data: Meta & HumanNames & { userId: number; fullName: string } };
export type DeactivateUser = {
  type: 'DeactivateUser';
  data: Meta & {
    userId: number;
    /**
     * Which Zulip endpoint's rules apply: `user` (DELETE /users/{id}: bots are "No such user"),
     * `bot` (DELETE /bots/{id}: humans are "No such bot", bot owners may deactivate their bots),
     * `self` (DELETE /users/me: the last-user and last-owner rules of deactivate_user_own_backend),
     * or `any` (the default: self rules when the actor is the target, administrator rules otherwise).
     */
    target?: 'user' | 'bot' | 'self' | 'any';
  };
};
export type ReactivateUser = { type: 'ReactivateUser'; data: Meta & HumanNames & { userId: number } };
export type RegenerateApiKey = { type: 'RegenerateApiKey'; data: Meta & { userId: number; apiKeyId: string } };
export type ChangePassword = { type: 'ChangePassword'; data: Meta & { userId: number; passwordId: string } };

/**
 * A bot created by a user (Zulip's add_bot_backend) or by the operator for a user. Its address is
 * `<shortName>-bot@<botDomain>`; the handler supplies the domain (from the organization's host).
 * The operator alone may create a bot owned by nobody (`ownerId: null`): a system bot such as
 * Notification Bot (Zulip's cross-realm bots, `is_system_bot`).
 */
export type CreateBot = {
  type: 'CreateBot';
  data: Meta & HumanNames & {
    userId: number;
    shortName: string;
    fullName: string;
    botType: BotType;
    ownerId: number | null;
    botDomain: string;
    apiKeyId: string;
  };
};
export type ChangeBotOwner = { type: 'ChangeBotOwner'; data: Meta & { botId: number; ownerId: number } };

export type UsersCommand =
  | CreateUser
  | CreateBot
  | ChangeBotOwner
  | ChangeUserRole
  | ChangeUserFullName
  | DeactivateUser
  | ReactivateUser
  | RegenerateApiKey
  | ChangePassword
  | ChangeUserEmail;

type UserState = {
  email: string;
  fullName: string;
  role: Role;
  isActive: boolean;
  isBot: boolean;
  botType?: BotType | null;
  botOwnerId?: number | null;
};
export type UsersDirectory = { users: Record<number, UserState>; userIdByEmail: Record<string, number> };

const activeOwnerCount = (state: UsersDirectory) =>
  Object.values(state.users).filter((u) => u.isActive && !u.isBot && u.role === 'owner').length;
const activeUserCount = (state: UsersDirectory) => Object.values(state.users).filter((u) => u.isActive).length;

/**
 * Zulip's check_bot_name_available: an active account (human or bot) already has exactly this
 * name. Bots' names from the directory; humans' from `activeHumanNames` when given (HumanNames).
 */
const activeNameTaken = (state: UsersDirectory, fullName: string, activeHumanNames?: readonly string[]) => {
  const name = fullName.trim();
  if (activeHumanNames?.includes(name)) return true;
  return Object.values(state.users).some((u) => u.isActive && (u.isBot || !activeHumanNames) && u.fullName === name);
};

/**
 * Who may rename whom (update_user_backend, check_change_full_name): a user themselves, an
 * administrator anyone, a bot's owner their bot. The target as the directory knows it; throws
 * "No such user" or "Insufficient permission". Also used to rename a human on their own stream.
 */
export function renameTarget(state: UsersDirectory, actorId: number | null, userId: number): { isBot: boolean; fullName: string } {
  const user = mustExist(state, userId);
  if (actorId !== userId && !canAdminUser(privilegesOf(state, actorId), user)) throw new InsufficientPermissionError();
  return { isBot: user.isBot, fullName: user.fullName };
}

const mustExist = (state: UsersDirectory, userId: number): UserState => {
  const user = state.users[userId];
  if (!user) throw new NoSuchUserError();
  return user;
};

/**
 * What the acting account may do, read from this stream's state rather than from the request: the
 * directory is the authority on roles, so a role changed a moment ago is already in force.
 * `actorId === null` is the operator (command line) or the system, who may do anything; an id the
 * directory does not know, or a deactivated account, has no privileges.
 */
type Privileges = { actorId: number | null; isAdmin: boolean; isOwner: boolean };
const privilegesOf = (state: UsersDirectory, actorId: number | null): Privileges => {
  if (actorId === null) return { actorId, isAdmin: true, isOwner: true };
  const actor = state.users[actorId];
  const active = actor !== undefined && actor.isActive;
  return {
    actorId,
    isAdmin: active && (actor.role === 'owner' || actor.role === 'administrator'),
    isOwner: active && actor.role === 'owner',
  };
};
/** Zulip's UserProfile.can_admin_user: administrators, and the owner of a bot for that bot. */
const canAdminUser = (actor: Privileges, target: UserState) =>
  actor.isAdmin || (actor.actorId !== null && target.isBot && target.botOwnerId === actor.actorId);

const deactivated = (realmId: number, userId: number, actorId: number | null, at: string): UserDeactivated => ({
  type: 'UserDeactivated',
  data: { realmId, userId, actorId, at },
});

export const usersDecider: Decider<UsersCommand, UserEvent, UsersDirectory> = {
  snapshot: { name: 'users', version: 1 },
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
              apiKeyId: d.apiKeyId, passwordId: d.passwordId, timezone: d.timezone, actorId, at,
            },
          },
        ];
      }
      case 'CreateBot': {
        // The order of checks follows zerver/views/users.py add_bot_backend.
        const d = command.data;
        const shortName = checkShortName(d.shortName); // "Bad name or username"
        const fullName = checkFullName(d.fullName);
        const email = botEmail(shortName, d.botDomain); // "Bad name or username"
        if (state.userIdByEmail[normalizeEmail(email)] !== undefined) throw new UsernameAlreadyInUseError();
        if (activeNameTaken(state, fullName, d.activeHumanNames)) throw new BotNameInUseError();
        if (!Object.prototype.hasOwnProperty.call(BOT_TYPE_VALUES, d.botType)) throw new InvalidBotTypeError();
        // Zulip makes the requester the owner; the operator names one (an active human), or none for a system bot.
        if (d.ownerId === null) {
          if (actorId !== null) throw new InsufficientPermissionError();
        } else {
          const owner = mustExist(state, d.ownerId);
          if (!owner.isActive) throw new UserIsDeactivatedError();
          if (owner.isBot) throw new BotCannotOwnBotError();
          if (actorId !== null && actorId !== d.ownerId) throw new InsufficientPermissionError();
        }
        return [
          {
            type: 'UserCreated',
            data: {
              realmId, userId: d.userId, email, fullName, role: 'member', isBot: true, botType: d.botType,
              botOwnerId: d.ownerId, apiKeyId: d.apiKeyId, passwordId: null, timezone: '', actorId, at,
            },
          },
        ];
      }
      case 'ChangeBotOwner': {
        const { botId, ownerId } = command.data;
        const bot = accessBot(state, botId, privilegesOf(state, actorId));
        const owner = state.users[ownerId];
        if (!owner) throw ChangeBotOwnerError.noSuchUser();
        if (!owner.isActive) throw ChangeBotOwnerError.deactivated();
        if (owner.isBot) throw ChangeBotOwnerError.ownerIsBot();
        if (bot.botOwnerId === ownerId) return [];
        return [{ type: 'BotOwnerChanged', data: { realmId, userId: botId, oldOwnerId: bot.botOwnerId ?? null, newOwnerId: ownerId, actorId, at } }];
      }
      case 'ChangeUserRole': {
        // zerver/views/users.py update_user_backend (and patch_bot_backend for bots).
        const { userId, role } = command.data;
        const user = mustExist(state, userId);
        if (user.role === role) return [];
        const actor = privilegesOf(state, actorId);
        if (!canAdminUser(actor, user)) throw new InsufficientPermissionError();
        if ((role === 'owner' || user.role === 'owner') && !actor.isOwner) throw new MustBeOwnerError();
        if (!actor.isAdmin) throw new MustBeAdministratorError();
        if (user.role === 'owner' && !user.isBot && user.isActive && activeOwnerCount(state) <= 1) throw new LastOwnerError();
        return [{ type: 'UserRoleChanged', data: { realmId, userId, oldRole: user.role, newRole: role, actorId, at } }];
      }
      case 'ChangeUserFullName': {
        const { userId } = command.data;
        renameTarget(state, actorId, userId);
        const user = state.users[userId];
        const fullName = checkFullName(command.data.fullName);
        if (user.fullName === fullName) return [];
        // check_change_bot_full_name: a bot may not take a name an active account already has.
        if (user.isBot && activeNameTaken(state, fullName, command.data.activeHumanNames)) throw new BotNameInUseError();
        return [{ type: 'UserFullNameChanged', data: { realmId, userId, oldName: user.fullName, newName: fullName, actorId, at } }];
      }
      case 'DeactivateUser': {
        const { userId } = command.data;
        const target = command.data.target ?? 'any';
        const user = state.users[userId];
        if (target === 'bot') {
          // deactivate_bot_backend: access_bot_by_id, then do_deactivate_user (a no-op when inactive).
          const bot = accessBot(state, userId, privilegesOf(state, actorId));
          if (!bot.isActive) return [];
          return [deactivated(realmId, userId, actorId, at)];
        }
        if (!user || (target === 'user' && user.isBot)) throw new NoSuchUserError();
        if (target === 'self' && actorId !== userId) throw new InsufficientPermissionError();
        if (!user.isActive) throw new UserAlreadyDeactivatedError();
        if (target === 'self' || (target === 'any' && actorId === userId)) {
          // deactivate_user_own_backend.
          if (activeUserCount(state) === 1) throw new CannotDeactivateLastUserError(false);
          if (user.role === 'owner' && !user.isBot && activeOwnerCount(state) <= 1) throw new CannotDeactivateLastUserError(true);
        } else {
          // deactivate_user_backend.
          const actor = privilegesOf(state, actorId);
          if (!canAdminUser(actor, user)) throw new InsufficientPermissionError();
          if (user.role === 'owner' && !actor.isOwner) throw new MustBeOwnerError();
          if (user.role === 'owner' && !user.isBot && activeOwnerCount(state) <= 1) throw new CannotDeactivateLastOwnerError();
        }
        // do_deactivate_user deactivates the user's active bots first, then the user: one append.
        const bots = Object.entries(state.users)
          .filter(([, u]) => u.isBot && u.isActive && u.botOwnerId === userId)
          .map(([id]) => Number(id))
          .sort((a, b) => a - b);
        return [...bots.map((botId) => deactivated(realmId, botId, actorId, at)), deactivated(realmId, userId, actorId, at)];
      }
      case 'ReactivateUser': {
        // reactivate_user_backend, then do_reactivate_user.
        const { userId } = command.data;
        const user = mustExist(state, userId);
        if (!canAdminUser(privilegesOf(state, actorId), user)) throw new InsufficientPermissionError();
        if (user.isActive) throw new UserAlreadyActiveError();
        if (user.isBot && activeNameTaken(state, user.fullName, command.data.activeHumanNames)) throw new BotNameInUseOnReactivationError(user.fullName);
        const events: UserEvent[] = [{ type: 'UserReactivated', data: { realmId, userId, actorId, at } }];
        // A bot whose owner is deactivated passes to the user who reactivates it.
        const owner = user.botOwnerId != null ? state.users[user.botOwnerId] : undefined;
        if (user.isBot && owner && !owner.isActive && actorId !== null && actorId !== user.botOwnerId) {
          events.push({ type: 'BotOwnerChanged', data: { realmId, userId, oldOwnerId: user.botOwnerId ?? null, newOwnerId: actorId, actorId, at } });
        }
        return events;
      }
      case 'RegenerateApiKey': {
        // Users regenerate their own key; bot owners and administrators a bot's (regenerate_bot_api_key).
        const { userId, apiKeyId } = command.data;
        const user = mustExist(state, userId);
        if (actorId !== null && actorId !== userId && !(user.isBot && canAdminUser(privilegesOf(state, actorId), user))) {
          throw new InsufficientPermissionError();
        }
        return [{ type: 'UserApiKeyRegenerated', data: { realmId, userId, apiKeyId, actorId, at } }];
      }
      case 'ChangePassword': {
        const { userId, passwordId } = command.data;
        mustExist(state, userId);
        return [{ type: 'UserPasswordChanged', data: { realmId, userId, passwordId, actorId, at } }];
      }
      case 'ChangeUserEmail': {
        // confirm_email_change: validate_email_change_request, then do_change_user_delivery_email.
        const { userId, newEmail } = command.data;
        const user = mustExist(state, userId);
        if (!user.isActive) throw new UserIsDeactivatedError();
        if (user.email === newEmail) return [];
        // validate_email_not_already_in_realm: a case-only change of one's own address counts as taken.
        const holder = state.userIdByEmail[normalizeEmail(newEmail)];
        if (holder !== undefined) throw state.users[holder]?.isActive ? EmailTakenError.active() : EmailTakenError.deactivated();
        return [{ type: 'UserEmailChanged', data: { realmId, userId, oldEmail: user.email, newEmail, actorId, at } }];
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
          users: {
            ...state.users,
            [d.userId]: {
              email: d.email, fullName: d.fullName, role: d.role, isActive: true, isBot: d.isBot,
              botType: d.botType, botOwnerId: d.botOwnerId,
            },
          },
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
      case 'BotOwnerChanged':
        return update(event.data.userId, { botOwnerId: event.data.newOwnerId });
      case 'UserEmailChanged': {
        const { userId, oldEmail, newEmail } = event.data;
        const { [normalizeEmail(oldEmail)]: _old, ...others } = state.userIdByEmail;
        return { ...update(userId, { email: newEmail }), userIdByEmail: { ...others, [normalizeEmail(newEmail)]: userId } };
      }
      default:
        return state;
    }
  },
};

/** zerver/lib/users.py access_bot_by_id: the target must be a bot the actor may administer. */
function accessBot(state: UsersDirectory, botId: number, actor: Privileges): UserState {
  const bot = state.users[botId];
  if (!bot || !bot.isBot) throw new NoSuchBotError();
  if (!canAdminUser(actor, bot)) throw new InsufficientPermissionError();
  return bot;
}
