/**
 * One user's settings live on `user_settings-<userId>`: they are that user's alone, so changing
 * them never contends with anyone else, and concurrent changes of one user's settings are
 * serialized by the stream's revision. The pending change of address lives here too.
 */
export const userSettingsStream = (userId: number) => `user_settings-${userId}`;
