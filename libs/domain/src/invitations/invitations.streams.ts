/**
 * `invitations-<realmId>`: every invitation of one organization. The boundary is the organization
 * because Zulip's daily limit counts the invitations of the whole organization (do_invite_users
 * locks the realm row for it); invitations are rare, so one stream per organization is no contention.
 */
export const invitationsStream = (realmId: number): string => `invitations-${realmId}`;
