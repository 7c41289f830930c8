import { ConfirmationLinkError } from '../settings/settings.errors';
import type { Actor } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { InsufficientPermissionError } from '../users/users.errors';
import { InvitationError, InvitationAlreadyRevokedError, NoInviteeEmailsError, NoSuchInvitationError } from './invitations.errors';
import type { InvitationEvent, InvitationTerms } from './invitations.events';
import {
  checkInvitationValidity,
  checkInviteAs,
  checkNotGuest,
  checkRoleBasedPermissions,
  type ExistingAccount,
  invitationExpiry,
  invitingRequiresAdmin,
  MAX_INVITES_PER_DAY,
  parseInviteeEmails,
  sortInvitees,
} from './invitations.rules';

type Meta = { realmId: number; actor: Actor; now: string };

/** What POST /invites and POST /invites/multiuse ask for, checked (channels and groups by the handler). */
export type InvitationRequest = {
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  /** null: the link never expires. */
  expiresInMinutes: number | null;
};

/**
 * POST /invites (invite_users_backend, do_invite_users). `mayInvite`: the actor is in the
 * organization's can_invite_users_group. `existing`: the accounts the addresses already have (by
 * lower-case address). `slots`: an id and a key digest for each parsed address, in order (unused
 * ones are dropped).
 */
export type InviteUsers = {
  type: 'InviteUsers';
  data: Meta &
    InvitationRequest & {
      mayInvite: boolean;
      inviteeEmails: string;
      notifyReferrerOnJoin: boolean;
      existing: Record<string, ExistingAccount>;
      slots: { invitationId: number; keyDigest: string }[];
    };
};
/** POST /invites/{id}/resend, with the digest of the link's key (the same key, or a new one for an invitation whose key was not kept). */
export type ResendInvitation = { type: 'ResendInvitation'; data: Meta & { invitationId: number; keyDigest: string } };
/** DELETE /invites/{id}. */
export type RevokeInvitation = { type: 'RevokeInvitation'; data: Meta & { invitationId: number } };
/** POST /invites/multiuse; `mayCreate`: the actor is in create_multiuse_invite_group. */
export type CreateMultiuseInvitation = { type: 'CreateMultiuseInvitation'; data: Meta & InvitationRequest & { mayCreate: boolean; invitationId: number; keyDigest: string } };
/** DELETE /invites/multiuse/{id}. */
export type RevokeMultiuseInvitation = { type: 'RevokeMultiuseInvitation'; data: Meta & { invitationId: number } };
/** The sign-up page: the account `userId` was made from the link whose key has `keyDigest`. */
export type AcceptInvitation = { type: 'AcceptInvitation'; data: Meta & { invitationId: number; keyDigest: string; userId: number } };

export type InvitationsCommand = InviteUsers | ResendInvitation | RevokeInvitation | CreateMultiuseInvitation | RevokeMultiuseInvitation | AcceptInvitation;

export type InvitationState = {
  kind: 'email' | 'multiuse';
  referrerId: number | null;
  invitedAs: number;
  status: 'pending' | 'used' | 'revoked';
  keyDigest: string;
  expiresAt: string | null;
};
/** `sent`: when each invitation mail of the last day was sent (the daily limit). */
export type InvitationsState = { invitations: Record<number, InvitationState>; sent: string[] };

const DAY_MS = 86_400_000;

const DAILY_LIMIT_MESSAGE =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';

/** check_invite_limit: the mails of the last 24 hours and these would exceed the organization's limit. */
function checkInviteLimit(state: InvitationsState, now: string, count: number): void {
  const since = Date.parse(now) - DAY_MS;
  const recent = state.sent.filter((at) => Date.parse(at) > since).length;
  if (recent + count > MAX_INVITES_PER_DAY) throw new InvitationError(DAILY_LIMIT_MESSAGE, [], { sentInvitations: false, dailyLimitReached: true });
}

/**
 * access_invite_by_id / access_multiuse_invite_by_id: an invitation of this organization, of the
 * asked kind; someone else's needs an administrator (an owner for an owner's invitation).
 */
function access(state: InvitationsState, actor: Actor, invitationId: number, kind: InvitationState['kind']): InvitationState {
  checkNotGuest(actor);
  const invitation = state.invitations[invitationId];
  // Used and revoked email invitations are gone from Zulip's lists (filter_to_valid_prereg_users).
  if (!invitation || invitation.kind !== kind || (kind === 'email' && invitation.status !== 'pending')) throw new NoSuchInvitationError();
  if (invitation.referrerId !== actor.userId) checkRoleBasedPermissions(actor, invitation.invitedAs, true);
  return invitation;
}

/** The checks POST /invites makes before it looks at channels and groups (the handler calls them first too). */
export function checkMayInvite(actor: Actor, may: boolean, invitedAs: number, expiresInMinutes: number | null): void {
  checkNotGuest(actor);
  checkInvitationValidity(expiresInMinutes);
  checkInviteAs(invitedAs);
  if (!may) throw new InsufficientPermissionError();
  checkRoleBasedPermissions(actor, invitedAs, invitingRequiresAdmin(invitedAs));
}

const termsOf = (request: InvitationRequest, now: string): InvitationTerms => ({
  invitedAs: request.invitedAs,
  streamIds: request.streamIds,
  groupIds: request.groupIds,
  includeRealmDefaultSubscriptions: request.includeRealmDefaultSubscriptions,
  expiresAt: invitationExpiry(now, request.expiresInMinutes),
});

/** The invitations of one organization (stream `invitations-<realmId>`), zerver/actions/invites.py. */
export const invitationsDecider: Decider<InvitationsCommand, InvitationEvent, InvitationsState> = {
  snapshot: { name: 'invitations', version: 1 },
  initialState: () => ({ invitations: {}, sent: [] }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    const actorId = actor.userId;
    switch (command.type) {
      case 'InviteUsers': {
        const d = command.data;
        checkMayInvite(actor, d.mayInvite, d.invitedAs, d.expiresInMinutes);
        if (d.inviteeEmails === '') throw new NoInviteeEmailsError();
        const emails = parseInviteeEmails(d.inviteeEmails);
        checkInviteLimit(state, at, emails.length);
        const { errors, skipped, valid } = sortInvitees(emails, new Map(Object.entries(d.existing)));
        if (errors.length > 0) {
          throw new InvitationError("Some emails did not validate, so we didn't send any invitations.", [...errors, ...skipped], { sentInvitations: false });
        }
        if (skipped.length === emails.length) throw new InvitationError("We weren't able to invite anyone.", skipped, { sentInvitations: false });
        return valid.map((email): InvitationEvent => {
          const slot = d.slots[emails.indexOf(email)];
          return {
            type: 'InvitationCreated',
            data: { realmId, invitationId: slot.invitationId, email, ...termsOf(d, at), notifyReferrerOnJoin: d.notifyReferrerOnJoin, keyDigest: slot.keyDigest, actorId, at },
          };
        });
      }
      case 'ResendInvitation': {
        access(state, actor, command.data.invitationId, 'email');
        checkInviteLimit(state, at, 1);
        return [{ type: 'InvitationResent', data: { realmId, invitationId: command.data.invitationId, keyDigest: command.data.keyDigest, actorId, at } }];
      }
      case 'RevokeInvitation': {
        const { referrerId } = access(state, actor, command.data.invitationId, 'email');
        return [{ type: 'InvitationRevoked', data: { realmId, invitationId: command.data.invitationId, referrerId, actorId, at } }];
      }
      case 'CreateMultiuseInvitation': {
        const d = command.data;
        checkMayInvite(actor, d.mayCreate, d.invitedAs, d.expiresInMinutes);
        return [{ type: 'MultiuseInvitationCreated', data: { realmId, invitationId: d.invitationId, ...termsOf(d, at), keyDigest: d.keyDigest, actorId, at } }];
      }
      case 'RevokeMultiuseInvitation': {
        const invitation = access(state, actor, command.data.invitationId, 'multiuse');
        if (invitation.status === 'revoked') throw new InvitationAlreadyRevokedError();
        return [{ type: 'MultiuseInvitationRevoked', data: { realmId, invitationId: command.data.invitationId, referrerId: invitation.referrerId, actorId, at } }];
      }
      case 'AcceptInvitation': {
        const invitation = state.invitations[command.data.invitationId];
        if (!invitation || invitation.keyDigest !== command.data.keyDigest) throw ConfirmationLinkError.doesNotExist();
        if (invitation.status !== 'pending' || (invitation.expiresAt !== null && Date.parse(at) > Date.parse(invitation.expiresAt))) throw ConfirmationLinkError.expired();
        const { invitationId, userId } = command.data;
        return [{ type: 'InvitationAccepted', data: { realmId, invitationId, userId, referrerId: invitation.referrerId, actorId, at } }];
      }
    }
  },

  evolve: (state, event) => {
    const set = (invitationId: number, change: Partial<InvitationState>, sentAt?: string): InvitationsState => {
      const invitations = { ...state.invitations, [invitationId]: { ...state.invitations[invitationId], ...change } };
      if (sentAt === undefined) return { ...state, invitations };
      // Only the last day's sends count for the limit.
      const since = Date.parse(sentAt) - DAY_MS;
      return { invitations, sent: [...state.sent.filter((t) => Date.parse(t) > since), sentAt] };
    };
    const d = event.data;
    switch (event.type) {
      case 'InvitationCreated':
        return set(
          event.data.invitationId,
          { kind: 'email', referrerId: event.data.actorId, invitedAs: event.data.invitedAs, status: 'pending', keyDigest: event.data.keyDigest, expiresAt: event.data.expiresAt },
          d.at,
        );
      case 'InvitationResent':
        return set(event.data.invitationId, { keyDigest: event.data.keyDigest }, d.at);
      case 'InvitationRevoked':
      case 'MultiuseInvitationRevoked':
        return set(event.data.invitationId, { status: 'revoked' });
      case 'MultiuseInvitationCreated':
        return set(event.data.invitationId, {
          kind: 'multiuse', referrerId: event.data.actorId, invitedAs: event.data.invitedAs, status: 'pending', keyDigest: event.data.keyDigest, expiresAt: event.data.expiresAt,
        });
      case 'InvitationAccepted':
        // A multiuse link serves everyone who follows it until it expires or is revoked.
        return state.invitations[event.data.invitationId]?.kind === 'email' ? set(event.data.invitationId, { status: 'used' }) : state;
      default:
        return state;
    }
  },
};
