/**
 * A user's drafts live on one stream, `drafts-<userId>`: a draft belongs to exactly one user
 * (Zulip's Draft.user_profile), every rule about it ("Draft does not exist" for someone else's
 * draft) is scoped to that user, and a user's draft writes never contend with anyone else's.
 * Draft ids come from the server-wide id sequence `draft`, as Zulip's are global.
 */
export const draftsStream = (userId: number) => `drafts-${userId}`;
