import { BOT_TYPE_VALUES, EMAIL_ADDRESS_VISIBILITY, ROLE_VALUES, type UserEvent, type UserSettingChanged, normalizeEmail } from '@app/domain';
import { defineProjection } from '../shared/projection';
import { CREDENTIALS, USERS, type CredentialDocument, type UserDocument } from '@app/application';

const USER_OBJECT_SETTINGS: ReadonlySet<string> = new Set(['timezone', 'email_address_visibility']);

export const usersProjection = defineProjection<UserDocument, UserEvent | UserSettingChanged>({
  name: 'users',
  collection: {
    name: USERS,
    fields: [
      // Queries always start from the organization: (realm_id, user_id) serves them; the flags
      // and the role only narrow a realm's rows, so their own indexes would only slow writes.
      // Except is_active: every send asks for the organization's few deactivated accounts
      // (SubscriptionQueries.deactivatedUserIds), which (realm_id, is_active) finds without
      // reading every user; it also serves realm_id alone, so realm_id needs no index of its own.
      { name: 'realm_id', type: 'number', index: false },
      { name: 'user_id', type: 'number', index: false },
      { name: 'email', type: 'string', index: false },
      { name: 'is_active', type: 'boolean', index: false },
      { name: 'is_bot', type: 'boolean', index: false },
      { name: 'bot_owner_id', type: 'number' },
      { name: 'role', type: 'number', index: false },
    ],
    compoundIndexes: [['realm_id', 'user_id'], ['realm_id', 'is_active']],
  },
  handles: ['UserCreated', 'UserRoleChanged', 'UserFullNameChanged', 'UserDeactivated', 'UserReactivated', 'BotOwnerChanged', 'UserEmailChanged', 'UserSettingChanged'],
  // Of the settings, the time zone is part of the user object, and email_address_visibility
  // decides its `email` and who reads `delivery_email`.
  idsOf: (e) => (e.type === 'UserSettingChanged' && !USER_OBJECT_SETTINGS.has(e.data.property) ? [] : [String(e.data.userId)]),
  evolve: (doc, e) => {
    if (e.type === 'UserSettingChanged') {
      if (!doc) return doc;
      if (e.data.property === 'timezone') return { ...doc, timezone: String(e.data.newValue) };
      const visibility = Number(e.data.newValue);
      // An event recorded before the dummy address was (none should exist) still hides the real one.
      const dummy = e.data.dummyEmail ?? `user${doc.user_id}@localhost`;
      return { ...doc, email_address_visibility: visibility, email: visibility === EMAIL_ADDRESS_VISIBILITY.everyone ? doc.delivery_email : dummy };
    }
    if (e.type === 'UserCreated') {
      const d = e.data;
      return {
        user_id: d.userId,
        realm_id: d.realmId,
        email: d.email,
        delivery_email: d.email,
        full_name: d.fullName,
        date_joined: d.at,
        is_active: true,
        is_owner: d.role === 'owner',
        is_admin: d.role === 'owner' || d.role === 'administrator',
        is_guest: d.role === 'guest',
        is_bot: d.isBot,
        bot_type: d.botType ? BOT_TYPE_VALUES[d.botType] : null,
        bot_owner_id: d.botOwnerId,
        role: ROLE_VALUES[d.role],
        role_name: d.role,
        timezone: d.timezone,
        avatar_version: 1,
        is_billing_admin: false,
      };
    }
    if (!doc) return doc;
    switch (e.type) {
      case 'UserRoleChanged': {
        const role = e.data.newRole;
        return {
          ...doc,
          role: ROLE_VALUES[role],
          role_name: role,
          is_owner: role === 'owner',
          is_admin: role === 'owner' || role === 'administrator',
          is_guest: role === 'guest',
        };
      }
      case 'UserFullNameChanged':
        return { ...doc, full_name: e.data.newName };
      case 'UserDeactivated':
        return { ...doc, is_active: false };
      case 'UserReactivated':
        return { ...doc, is_active: true };
      case 'BotOwnerChanged':
        return { ...doc, bot_owner_id: e.data.newOwnerId };
      case 'UserEmailChanged':
        // do_change_user_delivery_email; `email` follows while addresses are visible to everyone.
        return { ...doc, email: (doc.email_address_visibility ?? EMAIL_ADDRESS_VISIBILITY.everyone) === EMAIL_ADDRESS_VISIBILITY.everyone ? e.data.newEmail : doc.email, delivery_email: e.data.newEmail };
      default:
        return doc;
    }
  },
});

type CredentialEvent = Extract<UserEvent, { type: 'UserCreated' | 'UserApiKeyRegenerated' | 'UserPasswordChanged' | 'UserEmailChanged' }>;

export const credentialsProjection = defineProjection<CredentialDocument, CredentialEvent>({
  // v2: the documents name credential store entries instead of holding the key and hash (issue 35).
  name: 'credentials.v2',
  collection: {
    name: CREDENTIALS,
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'email_lower', type: 'string', index: false }, // the unique (realm_id, email_lower) index serves lookups
    ],
    unique: [['realm_id', 'email_lower']],
  },
  handles: ['UserCreated', 'UserApiKeyRegenerated', 'UserPasswordChanged', 'UserEmailChanged'],
  idsOf: (e) => [String(e.data.userId)],
  evolve: (doc, e) => {
    switch (e.type) {
      case 'UserCreated':
        return {
          user_id: e.data.userId,
          realm_id: e.data.realmId,
          email_lower: normalizeEmail(e.data.email),
          api_key_id: e.data.apiKeyId,
          password_id: e.data.passwordId,
        };
      case 'UserApiKeyRegenerated':
        return doc && { ...doc, api_key_id: e.data.apiKeyId };
      case 'UserPasswordChanged':
        return doc && { ...doc, password_id: e.data.passwordId };
      case 'UserEmailChanged':
        return doc && { ...doc, email_lower: normalizeEmail(e.data.newEmail) };
      default:
        return doc;
    }
  },
});
