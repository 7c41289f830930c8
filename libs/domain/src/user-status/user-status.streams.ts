/** A user's status lives on `user_status-<userId>`: theirs alone, set by them or an administrator. */
export const userStatusStream = (userId: number) => `user_status-${userId}`;
