/** AuditLogEventType.REALM_LINKIFIER_ADDED (do_add_linkifier): ordered after every other one. */
export type LinkifierAdded = {
  type: 'LinkifierAdded';
  data: { realmId: number; linkifierId: number; pattern: string; urlTemplate: string; order: number; actorId: number | null; at: string };
};

/** AuditLogEventType.REALM_LINKIFIER_CHANGED (do_update_linkifier): the new pattern and URL template. */
export type LinkifierChanged = {
  type: 'LinkifierChanged';
  data: { realmId: number; linkifierId: number; pattern: string; urlTemplate: string; actorId: number | null; at: string };
};

/** AuditLogEventType.REALM_LINKIFIER_REMOVED (do_remove_linkifier). */
export type LinkifierRemoved = {
  type: 'LinkifierRemoved';
  data: { realmId: number; linkifierId: number; pattern: string; urlTemplate: string; actorId: number | null; at: string };
};

/** AuditLogEventType.REALM_LINKIFIERS_REORDERED (check_reorder_linkifiers): every linkifier's new position. */
export type LinkifiersReordered = {
  type: 'LinkifiersReordered';
  data: { realmId: number; orderedIds: number[]; positions: Record<number, number>; actorId: number | null; at: string };
};

export type LinkifierEvent = LinkifierAdded | LinkifierChanged | LinkifierRemoved | LinkifiersReordered;

export const LINKIFIER_EVENT_TYPES: readonly LinkifierEvent['type'][] = ['LinkifierAdded', 'LinkifierChanged', 'LinkifierRemoved', 'LinkifiersReordered'];
