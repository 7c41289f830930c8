/**
 * Invitations to an organization (Zulip's PreregistrationUser with its Confirmation, and
 * MultiuseInvite). The confirmation key is a secret: events hold its SHA-256 (`keyDigest`), never
 * the key, which goes only into the mail (or the answer to POST /invites/multiuse).
 */

/** What an invitation makes of whoever accepts it (both kinds). */
export type InvitationTerms = {
  /** The role value (PreregistrationUser.INVITE_AS: 100 owner … 600 guest). */
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  /** When the link stops working (ISO); null: never. */
  expiresAt: string | null;
};

/** do_invite_users: one email invitation (INVITATION_SENT in the audit log of Zulip's counts). */
export type InvitationCreated = {
  type: 'InvitationCreated';
  data: InvitationTerms & { realmId: number; invitationId: number; email: string; notifyReferrerOnJoin: boolean; keyDigest: string; actorId: number | null; at: string };
};

/**
 * POST /invites/{id}/resend (do_send_user_invite_email). Zulip mails the same link again; this
 * server does not keep the key, so it mails a new one and the earlier link stops working.
 */
export type InvitationResent = { type: 'InvitationResent'; data: { realmId: number; invitationId: number; keyDigest: string; actorId: number | null; at: string } };

/** DELETE /invites/{id} (do_revoke_user_invite, INVITATION_REVOKED); `referrerId`: who made it (told by invites_changed). */
export type InvitationRevoked = { type: 'InvitationRevoked'; data: { realmId: number; invitationId: number; referrerId: number | null; actorId: number | null; at: string } };

/** POST /invites/multiuse (do_create_multiuse_invite_link): a link many people may use until it expires. */
export type MultiuseInvitationCreated = {
  type: 'MultiuseInvitationCreated';
  data: InvitationTerms & { realmId: number; invitationId: number; keyDigest: string; actorId: number | null; at: string };
};

/** DELETE /invites/multiuse/{id} (do_revoke_multi_use_invite). */
export type MultiuseInvitationRevoked = { type: 'MultiuseInvitationRevoked'; data: { realmId: number; invitationId: number; referrerId: number | null; actorId: number | null; at: string } };

/**
 * Someone signed up with the invitation's link (the account is `userId`): an email invitation is
 * used up (STATUS_USED); a multiuse link stays valid.
 */
export type InvitationAccepted = { type: 'InvitationAccepted'; data: { realmId: number; invitationId: number; userId: number; referrerId: number | null; actorId: number | null; at: string } };

export type InvitationEvent = InvitationCreated | InvitationResent | InvitationRevoked | MultiuseInvitationCreated | MultiuseInvitationRevoked | InvitationAccepted;

export const INVITATION_EVENT_TYPES: readonly InvitationEvent['type'][] = [
  'InvitationCreated',
  'InvitationResent',
  'InvitationRevoked',
  'MultiuseInvitationCreated',
  'MultiuseInvitationRevoked',
  'InvitationAccepted',
];
