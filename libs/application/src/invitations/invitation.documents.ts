/**
 * An invitation as the read model keeps it (Zulip's PreregistrationUser and MultiuseInvite with
 * their Confirmation): `key_digest` (SHA-256 of the link's key) finds it when its link is followed.
 */
export type InvitationDocument = {
  id: number;
  realm_id: number;
  is_multiuse: boolean;
  /** The invited address; null for a multiuse link. */
  email: string | null;
  invited_by_user_id: number | null;
  /** Seconds since the epoch. */
  invited: number;
  /** Seconds since the epoch; null: never expires. */
  expiry_date: number | null;
  invited_as: number;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  notify_referrer_on_join: boolean;
  status: 'pending' | 'used' | 'revoked';
  key_digest: string;
};

export const INVITATIONS = 'invitations';

/** Whether the invitation's link still works at `nowMs`. */
export const isInvitationValid = (doc: InvitationDocument, nowMs: number): boolean =>
  doc.status === 'pending' && (doc.expiry_date === null || doc.expiry_date * 1000 >= nowMs);

/**
 * do_get_invites_controlled_by_user's PreregistrationInviteData / MultiuseInviteData. `linkUrl`: a
 * multiuse invitation's link, from its kept key; null when the key was not kept (made before keys
 * were kept): then `link_url` is empty.
 */
export function formatInvitation(doc: InvitationDocument, linkUrl: string | null): Record<string, unknown> {
  const common = { invited_by_user_id: doc.invited_by_user_id, invited: doc.invited, expiry_date: doc.expiry_date, id: doc.id, invited_as: doc.invited_as };
  if (!doc.is_multiuse) return { email: doc.email, ...common, is_multiuse: false, notify_referrer_on_join: doc.notify_referrer_on_join };
  return { ...common, link_url: linkUrl ?? '', is_multiuse: true };
}
