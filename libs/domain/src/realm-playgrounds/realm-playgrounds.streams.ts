/**
 * The code playgrounds of an organization live on one stream, `realm_playgrounds-<realmId>`: a
 * (language, name) pair is unique per organization (RealmPlayground's unique_together), so adding
 * one must see every other. Administrators change them rarely; nothing else contends.
 */
export const realmPlaygroundsStream = (realmId: number) => `realm_playgrounds-${realmId}`;
