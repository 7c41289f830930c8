import {
  AVAILABLE_LANGUAGE_CODES,
  CannotChangeSettingForOthersError,
  USER_SETTINGS,
  canonicalTimezone,
  checkSettableForOthers,
  defaultUserSettings,
  isEmailBatchingPeriod,
  isNotificationSound,
  isRecognizedTimezone,
  isStrongEnoughPassword,
  resolveTargetUsers,
  type TargetAccount,
} from '@app/domain';

describe('check_timezone', () => {
  it('knows IANA names and their links, as zoneinfo does', () => {
    for (const name of ['America/New_York', 'Europe/Kyiv', 'Europe/Kiev', 'Asia/Kolkata', 'Asia/Calcutta', 'US/Mountain', 'UTC', 'Etc/GMT+5', 'EST5EDT', 'GB']) {
      expect([name, isRecognizedTimezone(name)]).toEqual([name, true]);
    }
  });

  it('refuses what zoneinfo refuses: unknown names, offsets, other spellings, nothing', () => {
    for (const name of ['Mars/Olympus', '+05:00', 'GMT+5', 'america/new_york', 'AMERICA/NEW_YORK', '', ' UTC', 'Europe/Paris ']) {
      expect([name, isRecognizedTimezone(name)]).toEqual([name, false]);
    }
  });

  it('stores links under their canonical name, and current names as given', () => {
    expect(canonicalTimezone('US/Mountain')).toBe('America/Denver');
    expect(canonicalTimezone('GB')).toBe('Europe/London');
    expect(canonicalTimezone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimezone('Europe/Kiev')).toBe('Europe/Kiev');
  });
});

describe('check_settings_values', () => {
  it('knows the languages Zulip is translated into', () => {
    expect(['en', 'de', 'zh-hans', 'pt-br', 'en-gb'].every((code) => AVAILABLE_LANGUAGE_CODES.has(code))).toBe(true);
    expect(['xx', 'EN', 'de_DE', ''].some((code) => AVAILABLE_LANGUAGE_CODES.has(code))).toBe(false);
  });

  it('knows the notification sounds, and "none"', () => {
    expect(['zulip', 'ding', 'chime', 'deep tom', 'none'].every(isNotificationSound)).toBe(true);
    expect(isNotificationSound('boing')).toBe(false);
  });

  it('bounds the email batching period to (0, one week]', () => {
    expect([1, 120, 604800].every(isEmailBatchingPeriod)).toBe(true);
    expect([0, -1, 604801].some(isEmailBatchingPeriod)).toBe(false);
  });
});

describe('the catalog', () => {
  it('has Zulip\'s defaults', () => {
    const defaults = defaultUserSettings('Asia/Tokyo');
    expect(defaults).toMatchObject({
      timezone: 'Asia/Tokyo', default_language: 'en', web_home_view: 'inbox', emojiset: 'google', color_scheme: 1,
      enable_drafts_synchronization: true, notification_sound: 'zulip', email_notifications_batching_period_seconds: 120,
      web_font_size_px: 16, web_line_height_percent: 140, user_list_style: 3, web_stream_unreads_count_display_policy: 2,
      receives_typing_notifications: true, presence_enabled: true, allow_private_data_export: false,
    });
    expect(Object.keys(USER_SETTINGS)).toHaveLength(Object.keys(defaults).length - 1);
  });

  it('hands each caller its own copy of the defaults (built once, never shared)', () => {
    const first = defaultUserSettings('Asia/Tokyo');
    (first as Record<string, unknown>).enable_drafts_synchronization = false;
    const second = defaultUserSettings();
    expect(second).not.toBe(first);
    expect(second).toMatchObject({ timezone: '', enable_drafts_synchronization: true });
  });
});

describe('checkSettableForOthers', () => {
  it('refuses account fields, the time zone and security-sensitive settings', () => {
    for (const name of ['email', 'new_password', 'full_name', 'timezone', 'presence_enabled', 'email_address_visibility', 'enable_login_emails']) {
      expect(() => checkSettableForOthers(name)).toThrow(CannotChangeSettingForOthersError);
    }
    expect(() => checkSettableForOthers('color_scheme')).not.toThrow();
  });
});

describe('check_password_strength', () => {
  it('wants 6 to 100 characters', () => {
    expect(isStrongEnoughPassword('abcdef')).toBe(true);
    expect(isStrongEnoughPassword('abcde')).toBe(false);
    expect(isStrongEnoughPassword('x'.repeat(101))).toBe(false);
  });

  it('with a minimum of 0 (a development server) takes anything from 1 character, never the empty password', () => {
    expect(isStrongEnoughPassword('a', 0)).toBe(true);
    expect(isStrongEnoughPassword('', 0)).toBe(false);
    expect(isStrongEnoughPassword('x'.repeat(101), 0)).toBe(false);
  });
});

describe('resolveTargetUsers', () => {
  const accounts: TargetAccount[] = [
    { userId: 1, role: 'owner', isActive: true, isBot: false },
    { userId: 2, role: 'administrator', isActive: true, isBot: false },
    { userId: 3, role: 'moderator', isActive: true, isBot: false },
    { userId: 4, role: 'member', isActive: true, isBot: false },
    { userId: 5, role: 'guest', isActive: true, isBot: false },
    { userId: 6, role: 'member', isActive: false, isBot: false },
    { userId: 7, role: 'member', isActive: true, isBot: true },
  ];

  it('takes listed users, deactivated ones too, but never bots', () => expect(resolveTargetUsers(accounts, [6, 7, 4, 4], [])).toEqual([4, 6]));

  it('takes the active members of system groups, recursively by role', () => {
    expect(resolveTargetUsers(accounts, [], ['role:administrators'])).toEqual([1, 2]);
    expect(resolveTargetUsers(accounts, [], ['role:members'])).toEqual([1, 2, 3, 4]);
    expect(resolveTargetUsers(accounts, [], ['role:everyone'])).toEqual([1, 2, 3, 4, 5]);
    expect(resolveTargetUsers(accounts, [], ['role:nobody'])).toEqual([]);
    expect(resolveTargetUsers(accounts, [5], ['role:owners'])).toEqual([1, 5]);
  });
});
