export const MUTED_USERS = 'muted_users';

/** One muted user as `/register` lists it (`muted_users`: get_user_mutes): the id and when, in seconds. */
export type ApiMutedUser = { id: number; timestamp: number };

/** The read model: one document per muting user, its mutes in the order they were made. */
export type MutedUsersDocument = { user_id: number; muted_users: ApiMutedUser[] };
