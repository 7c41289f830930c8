/**
 * All accounts of one organization share one stream: email uniqueness and "an organization keeps
 * at least one owner" are invariants over the whole user list. Per-user data (settings, drafts,
 * status) lives on per-user streams so that busy users never contend with the directory.
 */
export const usersStream = (realmId: number) => `users-${realmId}`;
