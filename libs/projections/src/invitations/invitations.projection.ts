import { INVITATION_EVENT_TYPES, type InvitationEvent } from '@app/domain';
import { type InvitationDocument, INVITATIONS } from '@app/application';
import { defineProjection } from '../shared/projection';

const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** Invitations (email and multiuse), from `invitations-<realmId>`; looked up by realm and by key digest. */
export const invitationsProjection = defineProjection<InvitationDocument, InvitationEvent>({
  name: 'invitations',
  collection: {
    name: INVITATIONS,
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'key_digest', type: 'string' },
    ],
  },
  handles: INVITATION_EVENT_TYPES,
  idsOf: (event) => [String(event.data.invitationId)],
  evolve: (doc, e) => {
    switch (e.type) {
      case 'InvitationCreated':
      case 'MultiuseInvitationCreated': {
        const d = e.data;
        return {
          id: d.invitationId,
          realm_id: d.realmId,
          is_multiuse: e.type === 'MultiuseInvitationCreated',
          email: e.type === 'InvitationCreated' ? e.data.email : null,
          invited_by_user_id: d.actorId,
          invited: seconds(d.at),
          expiry_date: d.expiresAt === null ? null : seconds(d.expiresAt),
          invited_as: d.invitedAs,
          stream_ids: d.streamIds,
          group_ids: d.groupIds,
          include_realm_default_subscriptions: d.includeRealmDefaultSubscriptions,
          notify_referrer_on_join: e.type === 'InvitationCreated' ? e.data.notifyReferrerOnJoin : false,
          status: 'pending',
          key_digest: d.keyDigest,
        };
      }
      case 'InvitationResent':
        return doc && { ...doc, key_digest: e.data.keyDigest };
      case 'InvitationRevoked':
      case 'MultiuseInvitationRevoked':
        return doc && { ...doc, status: 'revoked' };
      case 'InvitationAccepted':
        return doc && (doc.is_multiuse ? doc : { ...doc, status: 'used' });
      default:
        return doc;
    }
  },
});
