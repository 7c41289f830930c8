/**
 * All accounts of one organization share one stream: email uniqueness and "an organization keeps
 * at least one owner" are invariants over the whole user list. Per-user data (settings, drafts,
 * status, a human's name: userProfileStream) lives on per-user streams so that busy users never
 * contend with the directory.
 */
export const usersStream = (realmId: number) => `users-${realmId}`;

/**
 * A human's own profile, `user_profile-<userId>`: their full name (`UserFullNameChanged`, changed by
 * themselves or an administrator; userProfileDecider). No rule about a human's name involves anyone
 * else (require_unique_names is off), so renaming never contends with the directory, where every
 * other user's creation, role and deactivation is decided. Renames from before this stream existed
 * stay on `users-<realmId>`; a human's first rename here starts from the directory's copy of the
 * name (a fact of the command), and projectors apply `UserFullNameChanged` from either stream.
 * Bots' names stay on the directory: a bot's name is unique among active accounts.
 */
export const userProfileStream = (userId: number) => `user_profile-${userId}`;
