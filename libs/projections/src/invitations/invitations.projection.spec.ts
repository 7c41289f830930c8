import { recorded, replay } from '@app/testing';
import { invitationsProjection } from './invitations.projection';

const docs = (events: { type: string; data: object }[]) => replay(invitationsProjection, recorded(events));
const AT = '2026-01-01T00:00:00.000Z';
const created = { type: 'InvitationCreated', data: { realmId: 1, invitationId: 3, email: 'a@example.net', invitedAs: 400, streamIds: [5], groupIds: [7], includeRealmDefaultSubscriptions: true, expiresAt: '2026-01-01T01:00:00.000Z', notifyReferrerOnJoin: true, keyDigest: 'd1', actorId: 4, at: AT } };
const multiuse = { type: 'MultiuseInvitationCreated', data: { realmId: 1, invitationId: 4, invitedAs: 600, streamIds: [], groupIds: [], includeRealmDefaultSubscriptions: false, expiresAt: null, keyDigest: 'd2', actorId: 2, at: AT } };

describe('invitationsProjection', () => {
  it('stores an invitation in the shape GET /invites and the sign-up page read', () =>
    expect(docs([created]).get('3')).toEqual({
      id: 3, realm_id: 1, is_multiuse: false, email: 'a@example.net', invited_by_user_id: 4, invited: 1767225600, expiry_date: 1767229200, invited_as: 400,
      stream_ids: [5], group_ids: [7], include_realm_default_subscriptions: true, notify_referrer_on_join: true, status: 'pending', key_digest: 'd1',
    }));

  it('takes the new digest of a resent invitation, and marks revoked and used ones', () => {
    expect(docs([created, { type: 'InvitationResent', data: { realmId: 1, invitationId: 3, keyDigest: 'd9', actorId: 4, at: AT } }]).get('3')?.key_digest).toBe('d9');
    expect(docs([created, { type: 'InvitationRevoked', data: { realmId: 1, invitationId: 3, referrerId: 4, actorId: 2, at: AT } }]).get('3')?.status).toBe('revoked');
    expect(docs([created, { type: 'InvitationAccepted', data: { realmId: 1, invitationId: 3, userId: 9, referrerId: 4, actorId: 9, at: AT } }]).get('3')?.status).toBe('used');
  });

  it('keeps a multiuse link pending when someone accepts it', () => {
    const d = docs([multiuse, { type: 'InvitationAccepted', data: { realmId: 1, invitationId: 4, userId: 9, referrerId: 2, actorId: 9, at: AT } }]).get('4');
    expect(d).toMatchObject({ is_multiuse: true, email: null, expiry_date: null, status: 'pending' });
  });
});
