/**
 * The linkifiers of an organization live on one stream, `realm_linkifiers-<realmId>`: patterns
 * are unique per organization and a reorder names every linkifier.
 */
export const linkifiersStream = (realmId: number) => `realm_linkifiers-${realmId}`;
