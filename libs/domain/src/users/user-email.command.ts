/**
 * A confirmed change of address (confirm_email_change → do_change_user_delivery_email). The new
 * address must still be free in the organization: the directory is the authority on that.
 */
export type ChangeUserEmail = {
  type: 'ChangeUserEmail';
  data: { realmId: number; actorId: number | null; now: string; userId: number; newEmail: string };
};
