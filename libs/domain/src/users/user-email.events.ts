/** AuditLogEventType.USER_EMAIL_CHANGED (do_change_user_delivery_email), after a confirmed change. */
export type UserEmailChanged = {
  type: 'UserEmailChanged';
  data: { realmId: number; userId: number; oldEmail: string; newEmail: string; actorId: number | null; at: string };
};
