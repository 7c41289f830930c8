import { SYSTEM_GROUP_NAMES, type SystemGroupName } from '../shared/system-groups';
import { BadSettingValueError, DomainError } from '../shared/domain-error';

/**
 * The organization settings that messaging needs (Zulip's Realm.property_types and
 * Realm.REALM_PERMISSION_GROUP_SETTINGS, zerver/models/realms.py), with Zulip's defaults.
 */

/** Realm.DEFAULT_MESSAGE_CONTENT_EDIT_LIMIT_SECONDS. */
export const DEFAULT_MESSAGE_CONTENT_EDIT_LIMIT_SECONDS = 600;
/** Realm.DEFAULT_MESSAGE_CONTENT_DELETE_LIMIT_SECONDS. */
export const DEFAULT_MESSAGE_CONTENT_DELETE_LIMIT_SECONDS = 600;
/** Realm.DEFAULT_MOVE_MESSAGE_LIMIT_SECONDS (7 days). */
export const DEFAULT_MOVE_MESSAGE_LIMIT_SECONDS = 7 * 86400;

/** RealmTopicsPolicyEnum, by the names the API uses (parse_enum_from_string_value). */
export const REALM_TOPICS_POLICIES = ['allow_empty_topic', 'disable_empty_topic'] as const;
export type RealmTopicsPolicy = (typeof REALM_TOPICS_POLICIES)[number];

/** `moderation_request_channel_id` when no moderation request channel is set (reporting disabled). */
export const MODERATION_REQUEST_CHANNEL_DISABLED = -1;

export type RealmMessagingSettings = {
  allow_message_editing: boolean;
  /** null: no limit. */
  message_content_edit_limit_seconds: number | null;
  /** How long senders may delete their own messages (null: no limit); administrators are not limited. */
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  topics_policy: RealmTopicsPolicy;
  /**
   * Whether read receipts are available (GET /messages/{id}/read_receipts). Zulip enables them
   * for new organizations that require invitations, which is its default (do_create_realm).
   */
  enable_read_receipts: boolean;
  /**
   * The private channel Notification Bot posts message reports to (POST /messages/{id}/report);
   * -1: none, and reporting is disabled (Zulip's Realm.moderation_request_channel, feature level 331).
   */
  moderation_request_channel_id: number;
  /**
   * Whether members may not change their own email address (PATCH /settings `email`, and the link
   * that confirms it); administrators always may (Zulip's Realm.email_changes_disabled).
   */
  email_changes_disabled: boolean;
  /**
   * Days messages are kept before the retention job deletes them; -1: forever (Zulip's
   * Realm.message_retention_days). Channels may have their own (docs/messages.md, "Retention").
   */
  message_retention_days: number;
};
export type RealmMessagingProperty = keyof RealmMessagingSettings;

export const DEFAULT_REALM_MESSAGING_SETTINGS: RealmMessagingSettings = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: DEFAULT_MESSAGE_CONTENT_EDIT_LIMIT_SECONDS,
  message_content_delete_limit_seconds: DEFAULT_MESSAGE_CONTENT_DELETE_LIMIT_SECONDS,
  move_messages_within_stream_limit_seconds: DEFAULT_MOVE_MESSAGE_LIMIT_SECONDS,
  move_messages_between_streams_limit_seconds: DEFAULT_MOVE_MESSAGE_LIMIT_SECONDS,
  topics_policy: 'allow_empty_topic',
  enable_read_receipts: true,
  moderation_request_channel_id: MODERATION_REQUEST_CHANNEL_DISABLED,
  email_changes_disabled: false,
  message_retention_days: -1,
};

/** The time-limit settings, which take a positive integer or "unlimited" (parse_message_time_limit_setting). */
export const REALM_TIME_LIMIT_PROPERTIES = [
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;
export type RealmTimeLimitProperty = (typeof REALM_TIME_LIMIT_PROPERTIES)[number];

/** GroupPermissionSetting of the realm settings kept here (allow_internet_group is false for all of them). */
type GroupPermissionConfig = { defaultGroup: SystemGroupName; allowNobody: boolean; allowEveryone: boolean };

/** In Zulip's REALM_PERMISSION_GROUP_SETTINGS order, which is the order update_realm checks them in. */
export const REALM_GROUP_SETTINGS = {
  can_create_groups: { defaultGroup: 'role:members', allowNobody: true, allowEveryone: false },
  /** Who may make multiuse invitation links (POST /invites/multiuse). */
  create_multiuse_invite_group: { defaultGroup: 'role:administrators', allowNobody: true, allowEveryone: false },
  can_delete_any_message_group: { defaultGroup: 'role:administrators', allowNobody: false, allowEveryone: false },
  can_delete_own_message_group: { defaultGroup: 'role:everyone', allowNobody: true, allowEveryone: true },
  /** Who may invite people by email (POST /invites). */
  can_invite_users_group: { defaultGroup: 'role:members', allowNobody: true, allowEveryone: false },
  can_manage_all_groups: { defaultGroup: 'role:owners', allowNobody: false, allowEveryone: false },
  can_mention_many_users_group: { defaultGroup: 'role:administrators', allowNobody: true, allowEveryone: true },
  can_move_messages_between_channels_group: { defaultGroup: 'role:members', allowNobody: true, allowEveryone: false },
  can_move_messages_between_topics_group: { defaultGroup: 'role:everyone', allowNobody: true, allowEveryone: true },
  can_resolve_topics_group: { defaultGroup: 'role:everyone', allowNobody: true, allowEveryone: true },
  /** Who may set a channel's own topics_policy (with can_administer_channel_group); administrators always may. */
  can_set_topics_policy_group: { defaultGroup: 'role:members', allowNobody: true, allowEveryone: false },
  /** Who may start a direct message conversation (others may answer in an existing one). */
  direct_message_initiator_group: { defaultGroup: 'role:everyone', allowNobody: true, allowEveryone: true },
  direct_message_permission_group: { defaultGroup: 'role:everyone', allowNobody: true, allowEveryone: true },
} as const satisfies Record<string, GroupPermissionConfig>;
export type RealmGroupSettingName = keyof typeof REALM_GROUP_SETTINGS;

/**
 * What zerver/views/realm.py update_realm reserves for owners (OrganizationOwnerRequiredError,
 * whatever the value): invite_required, create_multiuse_invite_group, can_create_groups,
 * can_invite_users_group, can_manage_all_groups, emails_restricted_to_domains,
 * disallow_disposable_email_addresses, waiting_period_threshold, message_retention_days,
 * authentication_methods, string_id. Of these, PATCH /realm takes the two group settings here.
 */
export const OWNER_ONLY_REALM_SETTINGS: readonly string[] = [
  'invite_required', 'create_multiuse_invite_group', 'can_create_groups', 'can_invite_users_group', 'can_manage_all_groups',
  'emails_restricted_to_domains', 'disallow_disposable_email_addresses', 'waiting_period_threshold', 'message_retention_days',
  'authentication_methods', 'string_id',
];
export const REALM_GROUP_SETTING_NAMES = Object.keys(REALM_GROUP_SETTINGS) as RealmGroupSettingName[];
export type RealmGroupSettings = Record<RealmGroupSettingName, SystemGroupName>;

export const defaultRealmGroupSettings = (): RealmGroupSettings =>
  Object.fromEntries(REALM_GROUP_SETTING_NAMES.map((name) => [name, REALM_GROUP_SETTINGS[name].defaultGroup])) as RealmGroupSettings;

/**
 * A group-setting value as a client sends it: a user group id, or an anonymous group
 * (`{direct_members, direct_subgroups}`), which parse_group_setting_value reduces to a group id
 * when it names one subgroup and no user (or nothing: role:nobody).
 */
export type GroupSettingValueInput = number | { direct_members: number[]; direct_subgroups: number[] };
/** GroupSettingChangeRequest: the new value and, optionally, the value the client believes is current. */
export type GroupSettingChangeRequest = { new: GroupSettingValueInput; old?: GroupSettingValueInput };

/** do_set_realm_moderation_request_channel: only a private channel may receive reports. */
export class ModerationRequestChannelNotPrivateError extends DomainError {
  constructor() {
    super('Moderation request channel must be private.');
  }
}

// BadSettingValueError (RequestVariableConversionError) lives with the shared errors: the channels' settings use it too.

/** PreviousSettingValueMismatchedError. */
export class PreviousSettingValueMismatchedError extends DomainError {
  constructor() {
    super("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
  }
}

/** get_user_group_by_id_in_realm: no such group in this organization. */
export class InvalidUserGroupError extends DomainError {
  constructor() {
    super('Invalid user group');
  }
}

/** check_setting_configuration_for_system_groups, SystemGroupRequiredError. */
export class GroupSettingNotAllowedError extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/** parse_message_time_limit_setting with Realm.MESSAGE_TIME_LIMIT_SETTING_SPECIAL_VALUES_MAP ({"unlimited": None}). */
export function parseTimeLimitSetting(setting: RealmTimeLimitProperty, value: number | string): number | null {
  if (value === 'unlimited') return null;
  if (typeof value === 'string' || !Number.isSafeInteger(value) || value <= 0) throw new BadSettingValueError(setting, value);
  return value;
}

/**
 * The group a setting value names, as a system group of this organization (`groupIds`: its
 * system groups' ids). Anonymous groups other than the reducible ones are not supported here yet.
 */
export function resolveGroupSettingValue(
  value: GroupSettingValueInput,
  groupIds: Record<SystemGroupName, number>,
): { id: number; name: SystemGroupName | null } | { anonymous: true } {
  let id: number;
  if (typeof value === 'number') id = value;
  else if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) id = value.direct_subgroups[0];
  else if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) id = groupIds['role:nobody'];
  else return { anonymous: true };
  const name = SYSTEM_GROUP_NAMES.find((n) => groupIds[n] === id) ?? null;
  return { id, name };
}

/** check_setting_configuration_for_system_groups for the settings of REALM_GROUP_SETTINGS. */
export function checkGroupAllowedForSetting(setting: RealmGroupSettingName, group: SystemGroupName): void {
  const config: GroupPermissionConfig = REALM_GROUP_SETTINGS[setting];
  if (group === 'role:internet') throw new GroupSettingNotAllowedError(`'${setting}' setting cannot be set to 'role:internet' group.`);
  if (!config.allowNobody && group === 'role:nobody') throw new GroupSettingNotAllowedError(`'${setting}' setting cannot be set to 'role:nobody' group.`);
  if (!config.allowEveryone && group === 'role:everyone') {
    throw new GroupSettingNotAllowedError(`'${setting}' setting cannot be set to 'role:everyone' group.`);
  }
}

/** SystemGroupRequiredError, raised here for anonymous groups, which this server does not store yet. */
export const systemGroupRequired = (setting: RealmGroupSettingName) =>
  new GroupSettingNotAllowedError(`'${setting}' must be a system user group.`);
