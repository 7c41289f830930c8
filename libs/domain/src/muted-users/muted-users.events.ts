/** AuditLogEventType.USER_MUTED (do_mute_user). */
export type UserMuted = { type: 'UserMuted'; data: { userId: number; mutedUserId: number; at: string } };

/** AuditLogEventType.USER_UNMUTED (do_unmute_user). */
export type UserUnmuted = { type: 'UserUnmuted'; data: { userId: number; mutedUserId: number; at: string } };

export type MutedUserEvent = UserMuted | UserUnmuted;

export const MUTED_USER_EVENT_TYPES: readonly MutedUserEvent['type'][] = ['UserMuted', 'UserUnmuted'];
