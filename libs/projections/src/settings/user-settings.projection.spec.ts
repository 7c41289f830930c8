import { recorded, replay, userCreated } from '@app/testing';
import { emailChangesProjection, userSettingsProjection } from './user-settings.projection';

const AT = '2026-01-01T00:00:00.000Z';
const settingChanged = (property: string, oldValue: unknown, newValue: unknown, userId = 10) => ({
  type: 'UserSettingChanged', data: { realmId: 1, userId, property, oldValue, newValue, actorId: userId, editedBySelf: true, at: AT },
});
const emailRequested = (keyDigest: string, revokedKeyDigests: string[] = []) => ({
  type: 'EmailChangeRequested',
  data: { realmId: 1, userId: 10, oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', keyDigest, expiresAt: '2026-01-02T00:00:00.000Z', revokedKeyDigests, actorId: 10, at: AT },
});

describe('userSettingsProjection', () => {
  it('keeps no document for an account that never changed a setting', () => {
    expect(userSettingsProjection.handles).not.toContain('UserCreated');
    const docs = replay(userSettingsProjection, recorded([userCreated({ userId: 10, timezone: 'Europe/Paris' }), userCreated({ userId: 11 })]));
    expect(docs.size).toBe(0);
  });

  it('keeps only the settings that differ from the defaults, with the ids', () => {
    const docs = replay(userSettingsProjection, recorded([
      userCreated({ userId: 10 }),
      settingChanged('color_scheme', 1, 2),
      settingChanged('enable_drafts_synchronization', true, false),
      settingChanged('color_scheme', 2, 3),
    ]));
    expect(docs.get('10')).toEqual({ user_id: 10, realm_id: 1, color_scheme: 3, enable_drafts_synchronization: false });
  });

  it('leaves the time zone to the users read model', () =>
    expect(replay(userSettingsProjection, recorded([userCreated({ userId: 10 }), settingChanged('timezone', '', 'America/Denver')])).size).toBe(0));

  it('forgets a setting changed back to its default, and the document once none differs', () => {
    const events = [
      settingChanged('color_scheme', 1, 2),
      settingChanged('presence_enabled', true, false),
      settingChanged('color_scheme', 2, 1),
    ];
    expect(replay(userSettingsProjection, recorded(events)).get('10')).toEqual({ user_id: 10, realm_id: 1, presence_enabled: false });
    expect(replay(userSettingsProjection, recorded([...events, settingChanged('presence_enabled', false, true)])).size).toBe(0);
  });

  it('keeps each user apart', () => {
    const docs = replay(userSettingsProjection, recorded([settingChanged('color_scheme', 1, 2, 10), settingChanged('emojiset', 'google', 'twitter', 11)]));
    expect(docs.get('10')).toEqual({ user_id: 10, realm_id: 1, color_scheme: 2 });
    expect(docs.get('11')).toEqual({ user_id: 11, realm_id: 1, emojiset: 'twitter' });
  });
});

describe('emailChangesProjection', () => {
  it('keeps each link pending until used, and revokes the one a new request replaces', () => {
    const docs = replay(emailChangesProjection, recorded([emailRequested('abc'), emailRequested('def', ['abc'])]));
    expect(docs.get('abc')).toMatchObject({ status: 'revoked', new_email: 'prince@acme.test' });
    expect(docs.get('def')).toEqual({
      key_digest: 'def', user_id: 10, realm_id: 1, old_email: 'hamlet@acme.test', new_email: 'prince@acme.test', expires_at: '2026-01-02T00:00:00.000Z', status: 'pending',
    });
    const used = replay(emailChangesProjection, recorded([
      emailRequested('abc'),
      { type: 'EmailChangeConfirmed', data: { realmId: 1, userId: 10, keyDigest: 'abc', oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', at: AT } },
    ]));
    expect(used.get('abc')!.status).toBe('used');
  });
});
