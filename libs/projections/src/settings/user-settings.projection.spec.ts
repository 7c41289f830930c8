import { recorded, replay, userCreated } from '@app/testing';
import { defaultUserSettings } from '@app/domain';
import { emailChangesProjection, userSettingsProjection } from './user-settings.projection';

const AT = '2026-01-01T00:00:00.000Z';
const settingChanged = (property: string, oldValue: unknown, newValue: unknown, userId = 10) => ({
  type: 'UserSettingChanged', data: { realmId: 1, userId, property, oldValue, newValue, actorId: userId, editedBySelf: true, at: AT },
});
const emailRequested = (token: string, revokedTokens: string[] = []) => ({
  type: 'EmailChangeRequested',
  data: { realmId: 1, userId: 10, oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', token, expiresAt: '2026-01-02T00:00:00.000Z', revokedTokens, actorId: 10, at: AT },
});

describe('userSettingsProjection', () => {
  it('gives every new account Zulip\'s defaults and its time zone', () => {
    const docs = replay(userSettingsProjection, recorded([userCreated({ userId: 10, timezone: 'Europe/Paris' })]));
    expect(docs.get('10')).toEqual({ ...defaultUserSettings('Europe/Paris'), user_id: 10, realm_id: 1 });
  });

  it('follows each change', () => {
    const docs = replay(userSettingsProjection, recorded([
      userCreated({ userId: 10 }),
      settingChanged('color_scheme', 1, 2),
      settingChanged('enable_drafts_synchronization', true, false),
      settingChanged('timezone', '', 'America/Denver'),
      settingChanged('color_scheme', 2, 3),
    ]));
    expect(docs.get('10')).toMatchObject({ color_scheme: 3, enable_drafts_synchronization: false, timezone: 'America/Denver', emojiset: 'google' });
  });

  it('ignores changes of an account it does not know', () =>
    expect(replay(userSettingsProjection, recorded([settingChanged('color_scheme', 1, 2, 99)])).size).toBe(0));
});

describe('emailChangesProjection', () => {
  it('keeps each link pending until used, and revokes the one a new request replaces', () => {
    const docs = replay(emailChangesProjection, recorded([emailRequested('abc'), emailRequested('def', ['abc'])]));
    expect(docs.get('abc')).toMatchObject({ status: 'revoked', new_email: 'prince@acme.test' });
    expect(docs.get('def')).toEqual({
      token: 'def', user_id: 10, realm_id: 1, old_email: 'hamlet@acme.test', new_email: 'prince@acme.test', expires_at: '2026-01-02T00:00:00.000Z', status: 'pending',
    });
    const used = replay(emailChangesProjection, recorded([
      emailRequested('abc'),
      { type: 'EmailChangeConfirmed', data: { realmId: 1, userId: 10, token: 'abc', oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', at: AT } },
    ]));
    expect(used.get('abc')!.status).toBe('used');
  });
});
