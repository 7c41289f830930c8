import { defaultUserSettings, type UserCreated, type UserSettingsEvent } from '@app/domain';
import { EMAIL_CHANGES, USER_SETTINGS_COLLECTION, type EmailChangeDocument, type RecordedEvent, type UserSettingsDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

type Event = UserCreated | UserSettingsEvent;
const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as Event;

/** Every account's settings, at their defaults from its creation on. */
export const userSettingsProjection = defineProjection<UserSettingsDocument>({
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
  handles: ['UserCreated', 'UserSettingChanged'],
  idsOf: (event) => [String((event.data as { userId: number }).userId)],
  evolve: (doc, event) => {
    const e = asEvent(event);
    switch (e.type) {
      case 'UserCreated':
        return { ...defaultUserSettings(e.data.timezone), user_id: e.data.userId, realm_id: e.data.realmId };
      case 'UserSettingChanged':
        return doc && { ...doc, [e.data.property]: e.data.newValue };
      default:
        return doc;
    }
  },
});

/** Changes of address waiting for confirmation, by token (Zulip's EmailChangeStatus). */
export const emailChangesProjection = defineProjection<EmailChangeDocument>({
  name: 'email_changes',
  collection: { name: EMAIL_CHANGES, fields: [] },
  handles: ['EmailChangeRequested', 'EmailChangeConfirmed'],
  idsOf: (event) => {
    const e = asEvent(event);
    if (e.type === 'EmailChangeRequested') return [e.data.token, ...e.data.revokedTokens];
    return e.type === 'EmailChangeConfirmed' ? [e.data.token] : [];
  },
  evolve: (doc, event, id) => {
    const e = asEvent(event);
    if (e.type === 'EmailChangeRequested') {
      if (id !== e.data.token) return doc && { ...doc, status: 'revoked' };
      return {
        token: e.data.token, user_id: e.data.userId, realm_id: e.data.realmId, old_email: e.data.oldEmail,
        new_email: e.data.newEmail, expires_at: e.data.expiresAt, status: 'pending',
      };
    }
    if (e.type === 'EmailChangeConfirmed') return doc && { ...doc, status: 'used' };
    return doc;
  },
});
