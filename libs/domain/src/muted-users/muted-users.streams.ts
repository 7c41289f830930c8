/**
 * Whom a user has muted lives on one stream per muting user, `muted_users-<userId>`: "User already
 * muted" and "User is not muted" are rules over that one user's list, and muting never contends
 * with anyone else's writes.
 */
export const mutedUsersStream = (userId: number) => `muted_users-${userId}`;
