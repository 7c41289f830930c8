import type { Provider } from '@nestjs/common';
import { INVITATION_EVENT_TYPES, invitationsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import {
  CreateMultiuseInvitationHandler,
  INVITATION_SEQUENCE,
  InvitationMailer,
  InviteUsersHandler,
  ResendInvitationHandler,
  RevokeInvitationHandler,
  RevokeMultiuseInvitationHandler,
} from './invitation.handlers';
import { InvitationQueries } from './invitation.queries';
import { InvitationsClientEvents } from './invitations.client-events';
import { SignUpWithInvitationHandler } from './sign-up.handler';

const handlers: Provider[] = [
  InviteUsersHandler,
  ResendInvitationHandler,
  RevokeInvitationHandler,
  CreateMultiuseInvitationHandler,
  RevokeMultiuseInvitationHandler,
  SignUpWithInvitationHandler,
];
const queries: Provider[] = [InvitationQueries];
const services: Provider[] = [InvitationMailer];

/** Invitations to an organization (email and multiuse) and the sign-up their links lead to. */
export const invitationsArea = defineArea({
  name: 'invitations',
  providers: [...handlers, ...queries, ...services],
  exports: queries,
  clientEvents: InvitationsClientEvents,
  deciders: [invitationsDecider],
  events: INVITATION_EVENT_TYPES,
  idSequences: [{ sequence: INVITATION_SEQUENCE, fields: ['invitationId'] }],
});
