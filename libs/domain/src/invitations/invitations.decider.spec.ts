import { deciderSpec } from '@app/testing';
import {
  type Actor,
  ConfirmationLinkError,
  DomainError,
  GuestUsersNotAllowedError,
  InsufficientPermissionError,
  InvalidInviteAsError,
  InvitationAlreadyRevokedError,
  InvitationError,
  type InvitationEvent,
  invitationsDecider,
  type InvitationsCommand,
  MAX_INVITATION_VALIDITY_MINUTES,
  MAX_INVITES_PER_DAY,
  MustBeAdministratorError,
  MustBeOwnerError,
  NoInviteeEmailsError,
  NoSuchInvitationError,
  parseInviteeEmails,
} from '@app/domain';

const given = deciderSpec(invitationsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const desdemona: Actor = { realmId: 1, userId: 1, role: 'owner', isBot: false };
const iago: Actor = { realmId: 1, userId: 2, role: 'administrator', isBot: false };
const hamlet: Actor = { realmId: 1, userId: 4, role: 'member', isBot: false };
const cordelia: Actor = { realmId: 1, userId: 5, role: 'member', isBot: false };
const polonius: Actor = { realmId: 1, userId: 6, role: 'guest', isBot: false };

const TERMS = { invitedAs: 400, streamIds: [3], groupIds: [], includeRealmDefaultSubscriptions: false, expiresInMinutes: 60 as number | null };
const slots = (n: number, from = 10) => Array.from({ length: n }, (_, i) => ({ invitationId: from + i, keyDigest: `digest-${from + i}` }));
const invite = (inviteeEmails: string, o: Partial<typeof TERMS> & { actor?: Actor; mayInvite?: boolean; existing?: Record<string, { deactivated: boolean }>; now?: string } = {}): InvitationsCommand => ({
  type: 'InviteUsers',
  data: {
    realmId: 1, actor: o.actor ?? hamlet, now: o.now ?? AT, ...TERMS, ...o, mayInvite: o.mayInvite ?? true, inviteeEmails, notifyReferrerOnJoin: true,
    existing: o.existing ?? {}, slots: slots(parseInviteeEmails(inviteeEmails).length),
  },
});
const created = (invitationId: number, email: string, o: { actorId?: number; invitedAs?: number; at?: string } = {}): InvitationEvent => ({
  type: 'InvitationCreated',
  data: {
    realmId: 1, invitationId, email, invitedAs: o.invitedAs ?? 400, streamIds: [3], groupIds: [], includeRealmDefaultSubscriptions: false, expiresAt: '2026-01-01T01:00:00.000Z',
    notifyReferrerOnJoin: true, keyDigest: `digest-${invitationId}`, actorId: o.actorId ?? 4, at: o.at ?? AT,
  },
});
const multiuse = (invitationId: number, o: { actorId?: number; invitedAs?: number } = {}): InvitationEvent => ({
  type: 'MultiuseInvitationCreated',
  data: { realmId: 1, invitationId, invitedAs: o.invitedAs ?? 400, streamIds: [], groupIds: [], includeRealmDefaultSubscriptions: false, expiresAt: null, keyDigest: `digest-${invitationId}`, actorId: o.actorId ?? 2, at: AT },
});
const meta = (actor: Actor, now = AT) => ({ realmId: 1, actor, now });
const accept = (invitationId: number, now = AT, keyDigest = `digest-${invitationId}`): InvitationsCommand => ({ type: 'AcceptInvitation', data: { ...meta(desdemona, now), invitationId, keyDigest, userId: 50 } });

describe('invitationsDecider', () => {
  describe('InviteUsers', () => {
    it('invites each new address, with the terms, an expiry and the digest of its key', () =>
      given([]).when(invite('a@example.net, Bob <b@example.net>')).then([created(10, 'a@example.net'), created(11, 'b@example.net')]));

    it('invites an address written twice in different cases once, as first written', () =>
      given([]).when(invite('A@example.net, a@example.net\nA@EXAMPLE.NET')).then([created(10, 'A@example.net')]));

    it('refuses an invite_expires_in_minutes that is not positive or beyond the maximum; null never expires', () => {
      for (const bad of [0, -1, MAX_INVITATION_VALIDITY_MINUTES + 1]) {
        given([]).when(invite('a@example.net', { expiresInMinutes: bad })).thenThrows(DomainError, 'Invalid invite_expires_in_minutes');
        given([]).when({ type: 'CreateMultiuseInvitation', data: { ...meta(iago), ...TERMS, expiresInMinutes: bad, mayCreate: true, invitationId: 20, keyDigest: 'digest-20' } }).thenThrows(DomainError, 'Invalid invite_expires_in_minutes');
      }
      given([]).when(invite('a@example.net', { expiresInMinutes: null })).then([{ ...created(10, 'a@example.net'), data: { ...created(10, 'a@example.net').data, expiresAt: null } } as InvitationEvent]);
    });

    it('refuses guests, those outside can_invite_users_group, and unknown roles', () => {
      given([]).when(invite('a@example.net', { actor: polonius })).thenThrows(GuestUsersNotAllowedError);
      given([]).when(invite('a@example.net', { mayInvite: false })).thenThrows(InsufficientPermissionError, 'Insufficient permission');
      given([]).when(invite('a@example.net', { invitedAs: 500 })).thenThrows(InvalidInviteAsError, 'Invalid invite_as');
    });

    it('lets only administrators invite moderators and administrators, and only owners invite owners', () => {
      given([]).when(invite('a@example.net', { invitedAs: 300 })).thenThrows(MustBeAdministratorError);
      given([]).when(invite('a@example.net', { invitedAs: 100, actor: iago })).thenThrows(MustBeOwnerError);
      given([]).when(invite('a@example.net', { invitedAs: 200, actor: iago })).thenMatches([{ type: 'InvitationCreated' }]);
      given([]).when(invite('a@example.net', { invitedAs: 100, actor: desdemona })).thenMatches([{ type: 'InvitationCreated' }]);
    });

    it('refuses an empty list, malformed addresses and lists of existing accounts only', () => {
      given([]).when(invite('')).thenThrows(NoInviteeEmailsError);
      given([]).when(invite('bad, a@example.net')).thenThrows(InvitationError, "Some emails did not validate, so we didn't send any invitations.");
      given([]).when(invite('old@example.net', { existing: { 'old@example.net': { deactivated: true } } })).thenThrows(InvitationError, "We weren't able to invite anyone.");
    });

    it('invites the others when some addresses already have an account', () =>
      given([]).when(invite('Old@example.net, new@example.net', { existing: { 'old@example.net': { deactivated: false } } })).then([created(11, 'new@example.net')]));

    it("stops at the organization's daily limit, counting the last 24 hours", () => {
      const full = Array.from({ length: MAX_INVITES_PER_DAY }, (_, i) => created(100 + i, `p${i}@example.net`));
      given(full).when(invite('a@example.net')).thenThrows(InvitationError, /limits the number of invitations/);
      given(full).when(invite('a@example.net', { now: '2026-01-02T00:00:01.000Z' })).thenMatches([{ type: 'InvitationCreated' }]);
    });
  });

  describe('RevokeInvitation and ResendInvitation', () => {
    const revoke = (actor: Actor, invitationId = 10): InvitationsCommand => ({ type: 'RevokeInvitation', data: { ...meta(actor), invitationId } });
    const resend = (actor: Actor, invitationId = 10): InvitationsCommand => ({ type: 'ResendInvitation', data: { ...meta(actor), invitationId, keyDigest: 'new-digest' } });

    it("lets the inviter and administrators act; others' need an administrator, an owner's an owner", () => {
      given([created(10, 'a@example.net')]).when(revoke(hamlet)).then([{ type: 'InvitationRevoked', data: { realmId: 1, invitationId: 10, referrerId: 4, actorId: 4, at: AT } }]);
      given([created(10, 'a@example.net')]).when(revoke(cordelia)).thenThrows(MustBeAdministratorError);
      given([created(10, 'a@example.net')]).when(resend(iago)).then([{ type: 'InvitationResent', data: { realmId: 1, invitationId: 10, keyDigest: 'new-digest', actorId: 2, at: AT } }]);
      given([created(10, 'a@example.net', { actorId: 1, invitedAs: 100 })]).when(revoke(iago)).thenThrows(MustBeOwnerError);
    });

    it('knows no revoked, used, multiuse or unknown invitation', () => {
      const revoked: InvitationEvent = { type: 'InvitationRevoked', data: { realmId: 1, invitationId: 10, referrerId: 4, actorId: 4, at: AT } };
      given([created(10, 'a@example.net'), revoked]).when(resend(hamlet)).thenThrows(NoSuchInvitationError, 'No such invitation');
      given([multiuse(10)]).when(revoke(iago)).thenThrows(NoSuchInvitationError);
      given([]).when(revoke(iago, 99)).thenThrows(NoSuchInvitationError);
    });
  });

  describe('multiuse links', () => {
    const create = (actor: Actor, mayCreate = true, invitedAs = 400): InvitationsCommand => ({
      type: 'CreateMultiuseInvitation', data: { ...meta(actor), ...TERMS, expiresInMinutes: null, invitedAs, mayCreate, invitationId: 10, keyDigest: 'digest-10' },
    });
    const revoke = (actor: Actor): InvitationsCommand => ({ type: 'RevokeMultiuseInvitation', data: { ...meta(actor), invitationId: 10 } });

    it('are made by members of create_multiuse_invite_group, with the role rules of email invitations', () => {
      given([]).when(create(iago)).thenMatches([{ type: 'MultiuseInvitationCreated', data: { invitationId: 10, expiresAt: null, keyDigest: 'digest-10' } }]);
      given([]).when(create(hamlet, false)).thenThrows(InsufficientPermissionError);
      given([]).when(create(iago, true, 100)).thenThrows(MustBeOwnerError);
    });

    it('are revoked once', () => {
      given([multiuse(10)]).when(revoke(desdemona)).thenMatches([{ type: 'MultiuseInvitationRevoked', data: { referrerId: 2 } }]);
      given([multiuse(10), { type: 'MultiuseInvitationRevoked', data: { realmId: 1, invitationId: 10, referrerId: 2, actorId: 1, at: AT } }])
        .when(revoke(desdemona))
        .thenThrows(InvitationAlreadyRevokedError, 'Invitation has already been revoked');
      given([multiuse(10)]).when(revoke(hamlet)).thenThrows(MustBeAdministratorError);
    });
  });

  describe('AcceptInvitation', () => {
    it('uses an email invitation up, once, before it expires', () => {
      given([created(10, 'a@example.net')]).when(accept(10)).then([{ type: 'InvitationAccepted', data: { realmId: 1, invitationId: 10, userId: 50, referrerId: 4, actorId: 1, at: AT } }]);
      const accepted: InvitationEvent = { type: 'InvitationAccepted', data: { realmId: 1, invitationId: 10, userId: 50, referrerId: 4, actorId: 50, at: AT } };
      given([created(10, 'a@example.net'), accepted]).when(accept(10)).thenThrows(ConfirmationLinkError, 'The confirmation link has expired or been deactivated.');
      given([created(10, 'a@example.net')]).when(accept(10, '2026-01-01T01:00:01.000Z')).thenThrows(ConfirmationLinkError, /expired/);
      given([created(10, 'a@example.net')]).when(accept(10, AT, 'other')).thenThrows(ConfirmationLinkError, 'Whoops. The confirmation link does not exist.');
    });

    it('keeps a multiuse link valid for the next person', () => {
      const accepted: InvitationEvent = { type: 'InvitationAccepted', data: { realmId: 1, invitationId: 10, userId: 50, referrerId: 2, actorId: 50, at: AT } };
      given([multiuse(10), accepted]).when(accept(10)).thenMatches([{ type: 'InvitationAccepted' }]);
    });
  });
});
