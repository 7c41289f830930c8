/**
 * Every named user group of an organization lives on one stream, `user_groups-<realmId>`: names
 * are unique per organization, a subgroup may not make a cycle, and a group in use (a subgroup of
 * an active group, or named by an active group's setting) may not be deactivated, so each of
 * those decisions needs to see every group at once.
 */
export const userGroupsStream = (realmId: number) => `user_groups-${realmId}`;

/**
 * Named user groups take ids from their own sequence, above this base: the system groups of
 * organization r keep the conventional ids (r-1)*8+1 … r*8 (SystemGroupIds), so a named group's
 * id never collides with a system group of any organization up to 125,000 organizations.
 */
export const NAMED_USER_GROUP_ID_BASE = 1_000_000;
