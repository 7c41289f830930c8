import { Command } from '@nestjs/cqrs';
import type { InvitationRequest } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** POST /invites (invite_users_backend). */
export class InviteUsersCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly request: InvitationRequest & { inviteeEmails: string; notifyReferrerOnJoin: boolean },
  ) {
    super();
  }
}

/** POST /invites/{id}/resend (resend_user_invite_email). */
export class ResendInvitationCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly invitationId: number,
  ) {
    super();
  }
}

/** DELETE /invites/{id} (revoke_user_invite). */
export class RevokeInvitationCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly invitationId: number,
  ) {
    super();
  }
}

/** POST /invites/multiuse (generate_multiuse_invite_backend): answers the link. */
export class CreateMultiuseInvitationCommand extends Command<{ inviteLink: string }> {
  constructor(
    readonly context: CommandContext,
    readonly request: InvitationRequest,
  ) {
    super();
  }
}

/** DELETE /invites/multiuse/{id} (revoke_multiuse_invite). */
export class RevokeMultiuseInvitationCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly invitationId: number,
  ) {
    super();
  }
}

export type SignUpResult = { email: string; fullName: string; realmName: string; realmUrl: string };

/**
 * The sign-up page's form (Zulip's accounts_register with an invitation or a multiuse link): no
 * caller; the link's key is the authority. `email` only for a multiuse link.
 */
export class SignUpWithInvitationCommand extends Command<SignUpResult> {
  constructor(
    readonly key: string,
    readonly form: { fullName: string; password: string; email?: string },
  ) {
    super();
  }
}
