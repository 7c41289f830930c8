/** AuditLogEventType.REALM_PLAYGROUND_ADDED (check_add_realm_playground): the stored, stripped values. */
export type RealmPlaygroundAdded = {
  type: 'RealmPlaygroundAdded';
  data: { realmId: number; playgroundId: number; name: string; pygmentsLanguage: string; urlTemplate: string; actorId: number | null; at: string };
};

/** AuditLogEventType.REALM_PLAYGROUND_REMOVED (do_remove_realm_playground): what was removed, as Zulip's audit log keeps it. */
export type RealmPlaygroundRemoved = {
  type: 'RealmPlaygroundRemoved';
  data: { realmId: number; playgroundId: number; name: string; pygmentsLanguage: string; urlTemplate: string; actorId: number | null; at: string };
};

export type RealmPlaygroundEvent = RealmPlaygroundAdded | RealmPlaygroundRemoved;

export const REALM_PLAYGROUND_EVENT_TYPES: readonly RealmPlaygroundEvent['type'][] = ['RealmPlaygroundAdded', 'RealmPlaygroundRemoved'];
