export type RealmCreated = {
  type: 'RealmCreated';
  data: { realmId: number; stringId: string; name: string; description: string; at: string };
};
import type { SystemGroupName } from '../shared/system-groups';
import type { RealmGroupSettingName, RealmMessagingProperty } from './realm-messaging-settings';

/** The settings this server keeps on `realm-<realmId>` (Zulip's Realm.property_types, so far). */
export type RealmProperty = 'name' | 'description' | RealmMessagingProperty;
/** A property's value: strings (name, description, topics_policy), booleans, integers, null (no limit). */
export type RealmPropertyValue = string | number | boolean | null;

/** Zulip's AuditLogEventType.REALM_PROPERTY_CHANGED (do_set_realm_property), with old and new values. */
export type RealmPropertyChanged = {
  type: 'RealmPropertyChanged';
  data: { realmId: number; property: RealmProperty; oldValue: RealmPropertyValue; newValue: RealmPropertyValue; actorId: number | null; at: string };
};

/**
 * do_change_realm_permission_group_setting (also audited as REALM_PROPERTY_CHANGED): the group is
 * kept by system group name; its integer id belongs to the user-groups area and is resolved on output.
 */
export type RealmGroupSettingChanged = {
  type: 'RealmGroupSettingChanged';
  data: { realmId: number; setting: RealmGroupSettingName; oldValue: SystemGroupName; newValue: SystemGroupName; actorId: number | null; at: string };
};

/** Zulip's Realm deactivation reasons (do_deactivate_realm deactivation_reason). */
export const REALM_DEACTIVATION_REASONS = [
  'owner_request',
  'tos_violation',
  'inactivity',
  'self_hosting_migration',
  'subdomain_change',
  'demo_expired',
] as const;
export type RealmDeactivationReason = (typeof REALM_DEACTIVATION_REASONS)[number];

/** AuditLogEventType.REALM_DEACTIVATED. */
export type RealmDeactivated = {
  type: 'RealmDeactivated';
  data: { realmId: number; reason: RealmDeactivationReason; actorId: number | null; at: string };
};
/** AuditLogEventType.REALM_REACTIVATED. */
export type RealmReactivated = {
  type: 'RealmReactivated';
  data: { realmId: number; actorId: number | null; at: string };
};

/** Events of the registry stream. */
export type RealmEvent = RealmCreated;
/** Events of one organization's own stream, `realm-<realmId>`. */
export type RealmSettingsEvent = RealmPropertyChanged | RealmGroupSettingChanged | RealmDeactivated | RealmReactivated;
