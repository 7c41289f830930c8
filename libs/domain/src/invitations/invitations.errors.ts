import { DomainError } from '../shared/domain-error';

/** One refused address: [email, message, deactivated] (Zulip's InvitationError.errors tuples). */
export type InvitationErrorEntry = [string, string, boolean];

/**
 * zerver/lib/exceptions.py InvitationError: INVITATION_FAILED, with the refused addresses and
 * whether the others were invited.
 */
export class InvitationError extends DomainError {
  constructor(
    message: string,
    errors: InvitationErrorEntry[],
    options: { sentInvitations: boolean; licenseLimitReached?: boolean; dailyLimitReached?: boolean },
  ) {
    super(message, 'INVITATION_FAILED', 400, {
      errors,
      sent_invitations: options.sentInvitations,
      license_limit_reached: options.licenseLimitReached ?? false,
      daily_limit_reached: options.dailyLimitReached ?? false,
    });
  }
}

/** access_invite_by_id, access_multiuse_invite_by_id. */
export class NoSuchInvitationError extends DomainError {
  constructor() {
    super('No such invitation');
  }
}

/** access_multiuse_invite_by_id on a revoked link. */
export class InvitationAlreadyRevokedError extends DomainError {
  constructor() {
    super('Invitation has already been revoked');
  }
}

/** check_int_in_validator on invite_as. */
export class InvalidInviteAsError extends DomainError {
  constructor() {
    super('Invalid invite_as');
  }
}

/** invite_users_backend with an empty invitee_emails. */
export class NoInviteeEmailsError extends DomainError {
  constructor() {
    super('You must specify at least one email address.');
  }
}

/** access_streams_for_invite. */
export class InvalidInviteChannelError extends DomainError {
  constructor(channelId: number) {
    super(`Invalid channel ID ${channelId}. No invites were sent.`);
  }
}
