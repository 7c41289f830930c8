import type { Role } from '../shared/actor';
import type { UserEmailChanged } from './user-email.events';

export type BotType = 'generic' | 'incoming_webhook';

/** Zulip's UserProfile bot type numbers (DEFAULT_BOT = 1, INCOMING_WEBHOOK_BOT = 2), as the API sends them. */
export const BOT_TYPE_VALUES: Record<BotType, number> = { generic: 1, incoming_webhook: 2 };

export type UserCreated = {
  type: 'UserCreated';
  data: {
    realmId: number;
    userId: number;
    email: string;
    fullName: string;
    role: Role;
    isBot: boolean;
    botType: BotType | null;
    botOwnerId: number | null;
    /**
     * Which entry of the credential store holds the account's API key. Never the key itself nor a
     * digest of it: the log, its exports and copies hold no credential (docs/security.md).
     */
    apiKeyId: string;
    /** The credential store's entry holding the password hash, or null for accounts without a password (bots). */
    passwordId: string | null;
    timezone: string;
    actorId: number | null;
    at: string;
  };
};
export type UserRoleChanged = {
  type: 'UserRoleChanged';
  data: { realmId: number; userId: number; oldRole: Role; newRole: Role; actorId: number | null; at: string };
};
export type UserFullNameChanged = {
  type: 'UserFullNameChanged';
  data: { realmId: number; userId: number; oldName: string; newName: string; actorId: number | null; at: string };
};
export type UserDeactivated = {
  type: 'UserDeactivated';
  data: { realmId: number; userId: number; actorId: number | null; at: string };
};
export type UserReactivated = {
  type: 'UserReactivated';
  data: { realmId: number; userId: number; actorId: number | null; at: string };
};
/** The key changed; the new one is in the credential store under `apiKeyId`. */
export type UserApiKeyRegenerated = {
  type: 'UserApiKeyRegenerated';
  data: { realmId: number; userId: number; apiKeyId: string; actorId: number | null; at: string };
};
/** The password changed; its hash is in the credential store under `passwordId`. */
export type UserPasswordChanged = {
  type: 'UserPasswordChanged';
  data: { realmId: number; userId: number; passwordId: string; actorId: number | null; at: string };
};

/** Zulip's AuditLogEventType.USER_BOT_OWNER_CHANGED (do_change_bot_owner). */
export type BotOwnerChanged = {
  type: 'BotOwnerChanged';
  data: { realmId: number; userId: number; oldOwnerId: number | null; newOwnerId: number; actorId: number | null; at: string };
};

export type UserEvent =
  | UserCreated
  | UserRoleChanged
  | UserFullNameChanged
  | UserDeactivated
  | UserReactivated
  | UserApiKeyRegenerated
  | UserPasswordChanged
  | BotOwnerChanged
  | UserEmailChanged;
