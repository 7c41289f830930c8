export type RealmCreated = {
  type: 'RealmCreated';
  data: { realmId: number; stringId: string; name: string; description: string; at: string };
};
/** The settings this server keeps on `realm-<realmId>` (Zulip's Realm.property_types, so far). */
export type RealmProperty = 'name' | 'description';

/** Zulip's AuditLogEventType.REALM_PROPERTY_CHANGED (do_set_realm_property), with old and new values. */
export type RealmPropertyChanged = {
  type: 'RealmPropertyChanged';
  data: { realmId: number; property: RealmProperty; oldValue: string; newValue: string; actorId: number | null; at: string };
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
export type RealmSettingsEvent = RealmPropertyChanged | RealmDeactivated | RealmReactivated;
