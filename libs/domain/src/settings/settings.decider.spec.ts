import { deciderSpec } from '@app/testing';
import {
  CannotChangeSettingForOthersError,
  ConfirmationLinkError,
  InvalidBatchingPeriodError,
  InvalidDefaultLanguageError,
  InvalidNotificationSoundError,
  InvalidTimezoneError,
  SettingValueNotAllowedError,
  defaultUserSettings,
  foldEvents,
  userSettingsDecider,
  type SettingProperty,
  type SettingValue,
  type UserSettingsCommand,
  type UserSettingsEvent,
} from '@app/domain';

const given = deciderSpec(userSettingsDecider);
const NOW = '2026-02-03T04:05:06.000Z';
const HAMLET = 10;
const IAGO = 2;

const change = (
  changes: Partial<Record<SettingProperty, SettingValue>>,
  options: { actorId?: number; editedBySelf?: boolean; skipIfAlreadyEdited?: boolean; baseline?: Partial<Record<SettingProperty, SettingValue>> } = {},
): UserSettingsCommand => ({
  type: 'ChangeUserSettings',
  data: {
    realmId: 1, userId: HAMLET, actorId: options.actorId ?? HAMLET, now: NOW,
    editedBySelf: options.editedBySelf ?? true, skipIfAlreadyEdited: options.skipIfAlreadyEdited,
    changes: Object.entries(changes).map(([property, value]) => ({ property: property as SettingProperty, value: value as SettingValue })),
    baseline: options.baseline ?? defaultUserSettings('Europe/Paris'),
  },
});
const changed = (property: SettingProperty, oldValue: SettingValue, newValue: SettingValue, actorId = HAMLET, editedBySelf = true): UserSettingsEvent => ({
  type: 'UserSettingChanged', data: { realmId: 1, userId: HAMLET, property, oldValue, newValue, actorId, editedBySelf, at: NOW },
});

describe('userSettingsDecider', () => {
  describe('ChangeUserSettings', () => {
    it('records each changed setting with its old and new value', () =>
      given([]).when(change({ twenty_four_hour_time: true, color_scheme: 2 })).then([
        changed('twenty_four_hour_time', false, true),
        changed('color_scheme', 1, 2),
      ]));

    it('leaves out settings already at the requested value', () =>
      given([changed('color_scheme', 1, 2)]).when(change({ color_scheme: 2, emojiset: 'google' })).thenNothingHappened());

    it('takes the old value from the stream over the read model baseline', () =>
      given([changed('color_scheme', 1, 3)]).when(change({ color_scheme: 2 }, { baseline: { color_scheme: 1 } })).then([changed('color_scheme', 3, 2)]));

    it('stores the canonical name of a time zone link, and compares it with the current one', () => {
      given([]).when(change({ timezone: 'US/Mountain' })).then([changed('timezone', 'Europe/Paris', 'America/Denver')]);
      given([changed('timezone', '', 'America/Denver')]).when(change({ timezone: 'US/Mountain' })).thenNothingHappened();
    });

    it('checks every value before changing any, with Zulip\'s messages', () => {
      given([]).when(change({ twenty_four_hour_time: true, color_scheme: 7 })).thenThrows(SettingValueNotAllowedError, 'Invalid color_scheme: Value error, Not in the list of possible values');
      given([]).when(change({ default_language: 'xx' })).thenThrows(InvalidDefaultLanguageError, 'Invalid default_language');
      given([]).when(change({ notification_sound: 'boing' })).thenThrows(InvalidNotificationSoundError, "Invalid notification sound 'boing'");
      given([]).when(change({ email_notifications_batching_period_seconds: 0 })).thenThrows(InvalidBatchingPeriodError, 'Invalid email batching period: 0 seconds');
      given([]).when(change({ timezone: 'Mars/Olympus' })).thenThrows(InvalidTimezoneError, 'Invalid timezone: Value error, Not a recognized time zone');
      given([]).when(change({ emojiset: 'comic' })).thenThrows(SettingValueNotAllowedError, 'Invalid emojiset: Value error, Not in the list of possible values');
      given([]).when(change({ resolved_topic_notice_auto_read_policy: 'sometimes' })).thenThrows(Error, 'Invalid resolved_topic_notice_auto_read_policy');
    });

    it('accepts "none" as a notification sound, and a week of batching at most', () => {
      given([]).when(change({ notification_sound: 'none' })).thenMatches([{ data: { property: 'notification_sound', newValue: 'none' } }]);
      given([]).when(change({ email_notifications_batching_period_seconds: 604800 })).thenMatches([{ data: { newValue: 604800 } }]);
      given([]).when(change({ email_notifications_batching_period_seconds: 604801 })).thenThrows(InvalidBatchingPeriodError);
    });

    describe('for other users (target_users)', () => {
      it('records the administrator as the actor, not as the user\'s own edit', () =>
        given([]).when(change({ color_scheme: 2 }, { actorId: IAGO, editedBySelf: false })).then([changed('color_scheme', 1, 2, IAGO, false)]));

      it('refuses security-sensitive settings and the time zone', () => {
        given([]).when(change({ presence_enabled: false }, { actorId: IAGO, editedBySelf: false })).thenThrows(CannotChangeSettingForOthersError, 'Cannot change this setting for other users.');
        given([]).when(change({ send_read_receipts: false }, { actorId: IAGO, editedBySelf: false })).thenThrows(CannotChangeSettingForOthersError);
        given([]).when(change({ timezone: 'UTC' }, { actorId: IAGO, editedBySelf: false })).thenThrows(CannotChangeSettingForOthersError);
      });

      it('with skip_if_already_edited, leaves alone a setting the user changed themselves', () => {
        const history = [changed('color_scheme', 1, 3), changed('emojiset', 'google', 'text', IAGO, false)];
        given(history).when(change({ color_scheme: 2, emojiset: 'twitter' }, { actorId: IAGO, editedBySelf: false, skipIfAlreadyEdited: true })).then([
          changed('emojiset', 'text', 'twitter', IAGO, false),
        ]);
        given(history).when(change({ color_scheme: 2 }, { actorId: IAGO, editedBySelf: false, skipIfAlreadyEdited: false })).then([
          changed('color_scheme', 3, 2, IAGO, false),
        ]);
      });
    });
  });

  describe('email changes', () => {
    const request = (keyDigest: string, newEmail = 'prince@acme.test'): UserSettingsCommand => ({
      type: 'RequestEmailChange',
      data: { realmId: 1, userId: HAMLET, actorId: HAMLET, now: NOW, currentEmail: 'hamlet@acme.test', newEmail, keyDigest, expiresAt: '2026-02-04T04:05:06.000Z' },
    });
    const confirm = (keyDigest: string, now = NOW): UserSettingsCommand => ({ type: 'ConfirmEmailChange', data: { realmId: 1, userId: HAMLET, actorId: HAMLET, now, keyDigest } });
    const requested = (keyDigest: string, revokedKeyDigests: string[] = []): UserSettingsEvent[] => [
      { type: 'EmailChangeRequested', data: { realmId: 1, userId: HAMLET, oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', keyDigest, expiresAt: '2026-02-04T04:05:06.000Z', revokedKeyDigests, actorId: HAMLET, at: NOW } },
    ];

    it('starts a change of address that waits for its link', () =>
      given([]).when(request('abc')).then([
        { type: 'EmailChangeRequested', data: { realmId: 1, userId: HAMLET, oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', keyDigest: 'abc', expiresAt: '2026-02-04T04:05:06.000Z', revokedKeyDigests: [], actorId: HAMLET, at: NOW } },
      ]));

    it('revokes the pending link when another change is requested', () =>
      given(requested('abc')).when(request('def', 'other@acme.test')).thenMatches([{ data: { keyDigest: 'def', revokedKeyDigests: ['abc'] } }]));

    it('asks nothing when the address is the current one', () => given([]).when(request('abc', 'hamlet@acme.test')).thenNothingHappened());

    it('confirms the pending link once', () => {
      given(requested('abc')).when(confirm('abc')).then([
        { type: 'EmailChangeConfirmed', data: { realmId: 1, userId: HAMLET, keyDigest: 'abc', oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', at: NOW } },
      ]);
      const used = [...requested('abc'), ...userSettingsDecider.decide(confirm('abc'), foldEvents(userSettingsDecider, requested('abc')))];
      given(used).when(confirm('abc')).thenThrows(ConfirmationLinkError, 'The confirmation link has expired or been deactivated.');
    });

    it('refuses a revoked or expired link', () => {
      given([...requested('abc'), ...requested('def', ['abc'])]).when(confirm('abc')).thenThrows(ConfirmationLinkError);
      given(requested('abc')).when(confirm('abc', '2026-02-05T00:00:00.000Z')).thenThrows(ConfirmationLinkError);
    });
  });
});
