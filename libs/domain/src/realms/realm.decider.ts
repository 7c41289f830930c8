import type { Decider } from '../shared/decider';
import { InvalidRealmNameError, RealmSettingTooLongError } from './realm.errors';
import { InvalidChannelIdError } from '../channels/channels.errors';
import { MAX_REALM_NAME_LENGTH } from './realm-registry.decider';
import type { RealmDeactivationReason, RealmPropertyValue, RealmSettingsEvent } from './realm.events';
import type { SystemGroupName } from '../shared/system-groups';
import type { Role } from '../shared/actor';
import { MustBeOwnerError } from '../shared/domain-error';
import { type MessageRetentionDaysInput, parseMessageRetentionDays, REALM_RETENTION_SPECIAL_VALUES } from '../shared/message-retention';
import {
  checkGroupAllowedForSetting,
  DEFAULT_REALM_MESSAGING_SETTINGS,
  defaultRealmGroupSettings,
  type GroupSettingChangeRequest,
  InvalidUserGroupError,
  MODERATION_REQUEST_CHANNEL_DISABLED,
  OWNER_ONLY_REALM_SETTINGS,
  ModerationRequestChannelNotPrivateError,
  parseTimeLimitSetting,
  PreviousSettingValueMismatchedError,
  REALM_GROUP_SETTING_NAMES,
  REALM_TIME_LIMIT_PROPERTIES,
  type RealmGroupSettingName,
  type RealmGroupSettings,
  type RealmMessagingSettings,
  type RealmTopicsPolicy,
  resolveGroupSettingValue,
  systemGroupRequired,
} from './realm-messaging-settings';

/** Zulip's Realm.MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

type Meta = { realmId: number; actorId: number | null; now: string };

/**
 * The values the organization was registered with (its RealmCreated in the registry stream), as
 * the handler read them. They are used only while this stream has not changed a setting yet:
 * `realm-<realmId>` then holds the authority, so a stale read cannot produce a wrong old value.
 */
export type RealmRegistration = { name: string; description: string };

/** The messaging settings as a client sent them: limits as a positive integer or "unlimited". */
export type RealmMessagingSettingsInput = {
  allow_message_editing?: boolean;
  message_content_edit_limit_seconds?: number | string;
  message_content_delete_limit_seconds?: number | string;
  move_messages_within_stream_limit_seconds?: number | string;
  move_messages_between_streams_limit_seconds?: number | string;
  topics_policy?: RealmTopicsPolicy;
  enable_read_receipts?: boolean;
  email_changes_disabled?: boolean;
  /** A positive number of days or "unlimited" (owners only). */
  message_retention_days?: MessageRetentionDaysInput;
};

export type ChangeRealmSettings = {
  type: 'ChangeRealmSettings';
  data: Meta & {
    /** Who asks: owner-only settings (OWNER_ONLY_REALM_SETTINGS) are refused to anyone else but the operator. */
    actorRole: Role | 'operator';
    registered: RealmRegistration;
    name?: string;
    description?: string;
    messaging?: RealmMessagingSettingsInput;
    groups?: Partial<Record<RealmGroupSettingName, GroupSettingChangeRequest>>;
    /** The organization's system groups' ids (a fact from the user-groups area), to read group ids. */
    systemGroupIds?: Record<SystemGroupName, number>;
    /**
     * `moderation_request_channel_id` as sent (negative: disable reporting), with the channel it
     * names as the handler found it in this organization (null: none, or archived).
     */
    moderationRequestChannel?: { requestedId: number; channel: { inviteOnly: boolean } | null };
  };
};
export type DeactivateRealm = { type: 'DeactivateRealm'; data: Meta & { reason?: RealmDeactivationReason } };
export type ReactivateRealm = { type: 'ReactivateRealm'; data: Meta };

export type RealmSettingsCommand = ChangeRealmSettings | DeactivateRealm | ReactivateRealm;

/** Settings changed on this stream (null: still the registered value) and whether the organization is deactivated. */
export type RealmSettings = {
  name: string | null;
  description: string | null;
  deactivated: boolean;
  /** The messaging settings and group settings (Zulip's defaults until changed). */
  messaging: RealmMessagingSettings;
  groups: RealmGroupSettings;
};

/**
 * update_realm's moderation_request_channel_id: a negative id disables reporting (stored as -1);
 * otherwise the channel must exist in the organization (access_stream_by_id, "Invalid channel ID";
 * administrators reach every channel's metadata) and be private
 * (do_set_realm_moderation_request_channel).
 */
function moderationRequestChannelId({ requestedId, channel }: { requestedId: number; channel: { inviteOnly: boolean } | null }): number {
  if (requestedId < 0) return MODERATION_REQUEST_CHANNEL_DISABLED;
  if (!channel) throw new InvalidChannelIdError();
  if (!channel.inviteOnly) throw new ModerationRequestChannelNotPrivateError();
  return requestedId;
}

/**
 * update_realm for the settings kept here, validated before anything is recorded (Zulip saves
 * setting by setting; here one request is one append, so a refused setting stores nothing).
 */
function decideMessagingSettings(command: ChangeRealmSettings, state: RealmSettings): RealmSettingsEvent[] {
  const { realmId, actorId, now: at, messaging = {}, groups = {}, systemGroupIds } = command.data;
  const changes: { property: keyof RealmMessagingSettings; value: RealmPropertyValue }[] = [];
  for (const property of REALM_TIME_LIMIT_PROPERTIES) {
    const raw = messaging[property];
    if (raw !== undefined) changes.push({ property, value: parseTimeLimitSetting(property, raw) });
  }
  if (messaging.allow_message_editing !== undefined) changes.push({ property: 'allow_message_editing', value: messaging.allow_message_editing });
  if (messaging.topics_policy !== undefined) changes.push({ property: 'topics_policy', value: messaging.topics_policy });
  if (messaging.enable_read_receipts !== undefined) changes.push({ property: 'enable_read_receipts', value: messaging.enable_read_receipts });
  if (messaging.email_changes_disabled !== undefined) changes.push({ property: 'email_changes_disabled', value: messaging.email_changes_disabled });
  if (messaging.message_retention_days !== undefined) {
    // The realm's map has no null value: "realm_default" is not one of its names.
    const days = parseMessageRetentionDays(messaging.message_retention_days, REALM_RETENTION_SPECIAL_VALUES) as number;
    changes.push({ property: 'message_retention_days', value: days });
  }
  const moderation = command.data.moderationRequestChannel;
  if (moderation !== undefined) changes.push({ property: 'moderation_request_channel_id', value: moderationRequestChannelId(moderation) });

  const groupChanges: { setting: RealmGroupSettingName; value: SystemGroupName }[] = [];
  for (const setting of REALM_GROUP_SETTING_NAMES) {
    const request = groups[setting];
    if (request === undefined) continue;
    if (!systemGroupIds) throw new InvalidUserGroupError();
    const current = state.groups[setting];
    const currentId = systemGroupIds[current];
    // validate_group_setting_value_change: the expected old value first, then only a real change is checked.
    if (request.old !== undefined) {
      const old = resolveGroupSettingValue(request.old, systemGroupIds);
      if ('anonymous' in old || old.id !== currentId) throw new PreviousSettingValueMismatchedError();
    }
    const next = resolveGroupSettingValue(request.new, systemGroupIds);
    if ('anonymous' in next) throw systemGroupRequired(setting);
    if (next.id === currentId) continue;
    if (next.name === null) throw new InvalidUserGroupError();
    checkGroupAllowedForSetting(setting, next.name);
    groupChanges.push({ setting, value: next.name });
  }

  return [
    ...changes
      .filter(({ property, value }) => state.messaging[property] !== value)
      .map(({ property, value }) => ({
        type: 'RealmPropertyChanged' as const,
        data: { realmId, property, oldValue: state.messaging[property], newValue: value, actorId, at },
      })),
    ...groupChanges.map(({ setting, value }) => ({
      type: 'RealmGroupSettingChanged' as const,
      data: { realmId, setting, oldValue: state.groups[setting], newValue: value, actorId, at },
    })),
  ];
}

/**
 * One organization's settings and lifecycle, on `realm-<realmId>`. The registry stream keeps only
 * what must be unique server-wide (the subdomain); everything else about an organization changes
 * here, so that busy organizations never contend on the registry.
 */
export const realmDecider: Decider<RealmSettingsCommand, RealmSettingsEvent, RealmSettings> = {
  snapshot: { name: 'realm', version: 3 },
  initialState: () => ({
    name: null,
    description: null,
    deactivated: false,
    messaging: { ...DEFAULT_REALM_MESSAGING_SETTINGS },
    groups: defaultRealmGroupSettings(),
  }),

  decide: (command, state) => {
    const { realmId, actorId, now: at } = command.data;
    switch (command.type) {
      case 'ChangeRealmSettings': {
        const { registered, actorRole, groups = {}, messaging = {} } = command.data;
        // update_realm checks this first, for any value given (even the current one); message_retention_days
        // before its value is parsed (a non-owner's bad value is "Must be an organization owner").
        const ownerOnly = [...Object.entries(groups), ...Object.entries(messaging)].some(([name, value]) => value !== undefined && OWNER_ONLY_REALM_SETTINGS.includes(name));
        if (actorRole !== 'owner' && actorRole !== 'operator' && ownerOnly) throw new MustBeOwnerError();
        const changes: { property: 'name' | 'description'; value: string }[] = [];
        if (command.data.name !== undefined) {
          // update_realm: check_capped_string(Realm.MAX_REALM_NAME_LENGTH) on the raw value.
          if ([...command.data.name].length > MAX_REALM_NAME_LENGTH) throw new RealmSettingTooLongError('name', MAX_REALM_NAME_LENGTH);
          const name = command.data.name.trim();
          if (name.length === 0) throw new InvalidRealmNameError("Organization name can't be empty.");
          changes.push({ property: 'name', value: name });
        }
        if (command.data.description !== undefined) {
          const description = command.data.description;
          if ([...description].length > MAX_REALM_DESCRIPTION_LENGTH) {
            throw new RealmSettingTooLongError('description', MAX_REALM_DESCRIPTION_LENGTH);
          }
          changes.push({ property: 'description', value: description });
        }
        const current = { name: state.name ?? registered.name, description: state.description ?? registered.description };
        // Validated before anything is recorded; Zulip sets a property only when the value differs (update_realm).
        const messagingEvents = decideMessagingSettings(command, state);
        return [
          ...changes
            .filter(({ property, value }) => current[property] !== value)
            .map(({ property, value }) => ({
              type: 'RealmPropertyChanged' as const,
              data: { realmId, property, oldValue: current[property], newValue: value, actorId, at },
            })),
          ...messagingEvents,
        ];
      }
      case 'DeactivateRealm':
        // do_deactivate_realm returns early for an organization that is already deactivated.
        if (state.deactivated) return [];
        return [{ type: 'RealmDeactivated', data: { realmId, reason: command.data.reason ?? 'owner_request', actorId, at } }];
      case 'ReactivateRealm':
        if (!state.deactivated) return [];
        return [{ type: 'RealmReactivated', data: { realmId, actorId, at } }];
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'RealmPropertyChanged': {
        const { property, newValue } = event.data;
        if (property === 'name' || property === 'description') return { ...state, [property]: newValue as string };
        return { ...state, messaging: { ...state.messaging, [property]: newValue } };
      }
      case 'RealmGroupSettingChanged':
        return { ...state, groups: { ...state.groups, [event.data.setting]: event.data.newValue } };
      case 'RealmDeactivated':
        return { ...state, deactivated: true };
      case 'RealmReactivated':
        return { ...state, deactivated: false };
      default:
        return state;
    }
  },
};
