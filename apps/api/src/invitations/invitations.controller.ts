import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateMultiuseInvitationCommand,
  InvitationQueries,
  InviteUsersCommand,
  ResendInvitationCommand,
  RevokeInvitationCommand,
  RevokeMultiuseInvitationCommand,
} from '@app/application';
import { checkNotGuest, DEFAULT_INVITATION_VALIDITY_MINUTES, ROLE_VALUES } from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateMultiuseInvitationDto, InviteUsersDto } from './invitations.dto';

const terms = (p: { invite_as?: number; group_ids?: number[]; include_realm_default_subscriptions?: boolean; invite_expires_in_minutes?: number | null }, streamIds: number[]) => ({
  invitedAs: p.invite_as ?? ROLE_VALUES.member,
  streamIds,
  groupIds: p.group_ids ?? [],
  includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions ?? false,
  expiresInMinutes: p.invite_expires_in_minutes === undefined ? DEFAULT_INVITATION_VALIDITY_MINUTES : p.invite_expires_in_minutes,
});

/**
 * ≈ zerver/views/invite.py. Every route is require_member_or_admin: no guests, no bots. The rules
 * (who may invite whom, limits, errors) are the invitations decider's (libs/domain/src/invitations).
 */
@Controller('api/v1/invites')
export class InvitationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly invitations: InvitationQueries,
  ) {}

  @Get()
  @HumansOnly()
  @Summary('The invitations the caller may manage: all of the organization\'s for administrators, one\'s own otherwise.')
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    checkNotGuest(actor);
    return { invites: await this.invitations.controlledBy(actor) };
  }

  @Post()
  @HumansOnly()
  @Summary('Invite people by email (can_invite_users_group).')
  async invite(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: InviteUsersDto) {
    await this.commands.execute(
      new InviteUsersCommand({ actor }, { ...terms(p, p.stream_ids), inviteeEmails: p.invitee_emails, notifyReferrerOnJoin: p.notify_referrer_on_join ?? true }),
    );
    return {};
  }

  @Post('multiuse')
  @HumansOnly()
  @Summary('Create a multiuse invitation link (create_multiuse_invite_group).')
  async createMultiuse(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: CreateMultiuseInvitationDto) {
    const { inviteLink } = await this.commands.execute(new CreateMultiuseInvitationCommand({ actor }, terms(p, p.stream_ids ?? [])));
    return { invite_link: inviteLink };
  }

  @Delete('multiuse/:invite_id')
  @HumansOnly()
  @Summary('Revoke a multiuse invitation link.')
  async revokeMultiuse(@CurrentUser() { actor }: AuthenticatedUser, @Param('invite_id') rawId: string) {
    await this.commands.execute(new RevokeMultiuseInvitationCommand({ actor }, intPathParam(rawId)));
    return {};
  }

  @Delete(':invite_id')
  @HumansOnly()
  @Summary('Revoke an email invitation.')
  async revoke(@CurrentUser() { actor }: AuthenticatedUser, @Param('invite_id') rawId: string) {
    await this.commands.execute(new RevokeInvitationCommand({ actor }, intPathParam(rawId)));
    return {};
  }

  @Post(':invite_id/resend')
  @HumansOnly()
  @Summary('Send an email invitation again, with the same link.')
  async resend(@CurrentUser() { actor }: AuthenticatedUser, @Param('invite_id') rawId: string) {
    await this.commands.execute(new ResendInvitationCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
