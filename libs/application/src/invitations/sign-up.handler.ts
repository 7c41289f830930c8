import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  checkFullName,
  ConfirmationLinkError,
  DomainError,
  EmailTakenError,
  InvalidEmailAddressError,
  isStrongEnoughPassword,
  isValidEmailAddress,
  operatorActor,
  roleFromValue,
} from '@app/domain';
import type { AppConfig } from '@app/config';
import { ChannelQueries } from '../channels/channel.queries';
import { NotificationBot } from '../messages/notification-bot';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { APP_CONFIG, CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { RealmQueries } from '../realms/realm.queries';
import { confirmationKeyDigest } from '../shared/confirmation-keys';
import { DeciderCommands } from '../shared/decider-command-handler';
import { passwordPolicy } from '../shared/password-policy';
import { AddSubscriptionsCommand } from '../subscriptions/add-subscriptions.command';
import { UpdateUserGroupMembersCommand } from '../user-groups/user-group.command';
import { UserGroupQueries } from '../user-groups/user-group.queries';
import { CreateUserCommand } from '../users/create-user.command';
import { CredentialVault, invitationKeyEntryId } from '../shared/credential-vault';
import { UserQueries } from '../users/user.queries';
import { invitations } from './invitation.handlers';
import { InvitationQueries } from './invitation.queries';
import { type SignUpResult, SignUpWithInvitationCommand } from './invitation.commands';

/** The sign-up form's own refusals (Zulip's RegistrationForm errors). */
export class SignUpFormError extends DomainError {
  constructor(message: string) {
    super(message);
  }
}

/**
 * The sign-up page (Zulip's accounts_register, do_create_user with the prereg user, and
 * process_new_human_user): the link's key finds the invitation by its digest; an unknown link
 * "does not exist", a used, revoked or expired one "has expired". The account is created with the
 * invitation's role, joins its channels (and the default channels when the invitation says so) and
 * its groups; the invitation is marked used first (the acceptance decides: see execute); the
 * inviter is told when they asked to be.
 */
@CommandHandler(SignUpWithInvitationCommand)
export class SignUpWithInvitationHandler implements ICommandHandler<SignUpWithInvitationCommand> {
  constructor(
    private readonly bus: CommandBus,
    private readonly commands: DeciderCommands,
    private readonly queries: InvitationQueries,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly channels: ChannelQueries,
    private readonly groups: UserGroupQueries,
    private readonly notificationBot: NotificationBot,
    private readonly vault: CredentialVault,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ key, form }: SignUpWithInvitationCommand): Promise<SignUpResult> {
    const keyDigest = confirmationKeyDigest(key);
    const invitation = await this.queries.validByKey(key);
    const realmId = invitation.realm_id;
    const realm = await this.realms.mustFindById(realmId);
    if (realm.deactivated) throw ConfirmationLinkError.expired();
    const email = invitation.is_multiuse ? (form.email ?? '').trim() : invitation.email!;
    if (!isValidEmailAddress(email)) throw new InvalidEmailAddressError();
    const holder = await this.users.byEmail(realmId, email);
    if (holder) throw holder.is_active ? EmailTakenError.active() : EmailTakenError.deactivated();
    const fullName = checkFullName(form.fullName);
    if (!isStrongEnoughPassword(form.password, passwordPolicy(this.config).minLength)) throw new SignUpFormError('The password is too weak.');

    const system = { actor: operatorActor(realmId) };
    // The acceptance is the check: decided on the invitations stream before the account exists, it
    // refuses a link revoked, used or expired since it was read above (a revocation racing this
    // sign-up), so such a link never makes an account.
    const userId = await this.ids.next('user');
    await invitations(this.commands, { ...system.actor, userId }, (meta) => ({ type: 'AcceptInvitation', data: { ...meta, invitationId: invitation.id, keyDigest, userId } }));
    await this.bus.execute(
      new CreateUserCommand(system, {
        userId,
        email,
        fullName,
        role: roleFromValue(invitation.invited_as) ?? 'member',
        password: form.password,
        joinDefaultChannels: invitation.include_realm_default_subscriptions,
      }),
    );
    const channels = (await this.channels.byIds(realmId, invitation.stream_ids)).filter((c) => !c.is_archived);
    if (channels.length > 0) {
      await this.bus.execute(
        new AddSubscriptionsCommand(system, { subscriptions: channels.map((c) => ({ name: c.name })), principals: [userId], authorizationErrorsFatal: false }),
      );
    }
    for (const groupId of invitation.group_ids) {
      const group = await this.groups.byId(realmId, groupId);
      if (!group || group.deactivated || group.is_system_group) continue;
      await this.bus.execute(new UpdateUserGroupMembersCommand(system, groupId, { add: [userId], delete: [], addSubgroups: [], deleteSubgroups: [] }));
    }
    // A spent email invitation's key is no longer needed (a multiuse link's stays until revoked).
    if (!invitation.is_multiuse) await this.vault.forget(invitationKeyEntryId(realmId, invitation.id));
    if (!invitation.is_multiuse && invitation.notify_referrer_on_join && invitation.invited_by_user_id !== null) {
      // process_new_human_user: "@_**Name|id** accepted your invitation to join Zulip!"
      await this.notificationBot.postDirect(realmId, [{ userId: invitation.invited_by_user_id, content: `@_**${fullName}|${userId}** accepted your invitation to join Zulip!` }], this.clock.now().toISOString());
    }
    return { email, fullName, realmName: realm.name, realmUrl: this.config.externalUrl };
  }

}
