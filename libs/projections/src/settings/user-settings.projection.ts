import { USER_SETTINGS, TIMEZONE_SETTING, isUserSettingName, type UserSettingChanged, type UserSettingsEvent } from '@app/domain';
import { EMAIL_CHANGES, USER_SETTINGS_COLLECTION, type EmailChangeDocument, type UserSettingsDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/**
 * The settings each account changed away from Zulip's defaults: no document for an account that
 * never did (the queries merge the defaults back in), and none once every setting is back at its
 * default. The time zone is not kept here: the users read model holds it (set at creation,
 * followed on change).
 */
export const userSettingsProjection = defineProjection<UserSettingsDocument, UserSettingChanged>({
  name: 'user_settings',
  collection: {
    name: USER_SETTINGS_COLLECTION,
    // Read by user id (the document id); /register's user_status asks who turned presence off.
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'presence_enabled', type: 'boolean', index: false },
    ],
    compoundIndexes: [['realm_id', 'presence_enabled']],
  },
  handles: ['UserSettingChanged'],
  idsOf: ({ data: { property, userId } }) => (property === TIMEZONE_SETTING ? [] : [String(userId)]),
  evolve: (doc, e) => {
    if (!isUserSettingName(e.data.property)) return doc;
    const { property, newValue, userId, realmId } = e.data;
    const { user_id: _userId, realm_id: _realmId, [property]: _previous, ...others } = doc ?? {};
    const differs = newValue !== USER_SETTINGS[property].default;
    if (!differs && Object.keys(others).length === 0) return null;
    return { ...others, ...(differs ? { [property]: newValue } : {}), user_id: userId, realm_id: realmId } as UserSettingsDocument;
  },
});

/** Changes of address waiting for confirmation, by the digest of their key (Zulip's EmailChangeStatus). */
export const emailChangesProjection = defineProjection<EmailChangeDocument, UserSettingsEvent>({
  name: 'email_changes',
  collection: { name: EMAIL_CHANGES, fields: [] },
  handles: ['EmailChangeRequested', 'EmailChangeConfirmed'],
  idsOf: (e) => {
    if (e.type === 'EmailChangeRequested') return [e.data.keyDigest, ...e.data.revokedKeyDigests];
    return e.type === 'EmailChangeConfirmed' ? [e.data.keyDigest] : [];
  },
  evolve: (doc, e, id) => {
    if (e.type === 'EmailChangeRequested') {
      if (id !== e.data.keyDigest) return doc && { ...doc, status: 'revoked' };
      return {
        key_digest: e.data.keyDigest, user_id: e.data.userId, realm_id: e.data.realmId, old_email: e.data.oldEmail,
        new_email: e.data.newEmail, expires_at: e.data.expiresAt, status: 'pending',
      };
    }
    if (e.type === 'EmailChangeConfirmed') return doc && { ...doc, status: 'used' };
    return doc;
  },
});
