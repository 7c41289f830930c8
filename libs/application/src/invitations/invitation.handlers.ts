import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type Actor,
  canSubscribeOthersToAccessibleChannels,
  checkMayInvite,
  DomainError,
  type ExistingAccount,
  InsufficientPermissionError,
  InvalidInviteChannelError,
  invitationsDecider,
  invitationsStream,
  InvalidUserGroupError,
  NoInviteeEmailsError,
  parseInviteeEmails,
  sortInvitees,
  InvitationError,
  type InvitationCreated,
  type UserGroupSettingValue,
  defaultRealmGroupSettings,
} from '@app/domain';
import type { AppConfig } from '@app/config';
import { ChannelQueries } from '../channels/channel.queries';
import { Mailer } from '../email/mailer';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import type { RandomPort } from '../ports/random.port';
import { APP_CONFIG, ID_ALLOCATOR, RANDOM } from '../ports/tokens';
import { RealmQueries, realmGroupSettingsOf } from '../realms/realm.queries';
import { confirmationKeyDigest, newConfirmationKey } from '../shared/confirmation-keys';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { UserGroupQueries } from '../user-groups/user-group.queries';
import { CredentialVault, invitationKeyEntryId } from '../shared/credential-vault';
import { UserQueries } from '../users/user.queries';
import {
  CreateMultiuseInvitationCommand,
  InviteUsersCommand,
  ResendInvitationCommand,
  RevokeInvitationCommand,
  RevokeMultiuseInvitationCommand,
} from './invitation.commands';
import { invitationMail, joinUrl } from './invitation.mails';
import { InvitationQueries } from './invitation.queries';

/** The invitation commands: one append on `invitations-<realmId>`. */
export const invitations = DeciderCommandHandler({ ...invitationsDecider, mapToStreamId: ({ data }) => invitationsStream(data.realmId) });

/** The id sequence of both kinds of invitation (one space of ids, as each is addressed by kind and id). */
export const INVITATION_SEQUENCE = 'invitation';

/**
 * access_streams_for_invite and access_user_groups_for_invite: channels the inviter may reach (and,
 * unless the inviter may subscribe others, default channels only); named, active groups of the
 * organization (system groups are refused, as access_user_group_for_update refuses them) to which
 * the inviter may add members: the organization's can_manage_all_groups, or the group's own
 * can_manage_group or can_add_members_group.
 */
async function checkChannelsAndGroups(channels: ChannelQueries, groups: UserGroupQueries, realms: RealmQueries, actor: Actor, streamIds: number[], groupIds: number[]): Promise<void> {
  const reached = [];
  for (const id of streamIds) {
    try {
      reached.push((await channels.accessById(actor, id)).channel);
    } catch (error) {
      if (error instanceof DomainError) throw new InvalidInviteChannelError(id);
      throw error;
    }
  }
  if (actor.role !== 'operator' && !canSubscribeOthersToAccessibleChannels(actor.role) && reached.some((c) => !c.is_default)) {
    throw new DomainError('You do not have permission to subscribe other users to channels.');
  }
  if (groupIds.length === 0) return;
  const [{ graph, systemIds }, realm] = await Promise.all([groups.snapshot(actor.realmId), realms.byId(actor.realmId)]);
  const manageAll = systemIds[(realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings()).can_manage_all_groups];
  const can = (value: UserGroupSettingValue) => actor.role === 'operator' || graph.settingContains({ userId: actor.userId ?? -1, role: actor.role }, value);
  for (const id of groupIds) {
    const group = await groups.byId(actor.realmId, id);
    if (!group || group.deactivated) throw new InvalidUserGroupError();
    if (group.is_system_group) throw new InsufficientPermissionError();
    if (!can(manageAll) && !can(group.can_manage_group) && !can(group.can_add_members_group)) throw new InsufficientPermissionError();
  }
}

/** do_send_user_invite_email: the invitation mail, in the name of whoever made the invitation, with its link's key. */
@Injectable()
export class InvitationMailer {
  constructor(
    private readonly mailer: Mailer,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(realmId: number, referrerId: number | null, invitation: { email: string; expiresAt: string | null }, key: string): Promise<void> {
    const [realm, referrer] = await Promise.all([this.realms.mustFindById(realmId), referrerId === null ? null : this.users.byId(realmId, referrerId)]);
    const realmUrl = this.config.externalUrl;
    await this.mailer.send(
      invitationMail({
        to: invitation.email,
        referrerName: referrer?.full_name ?? realm.name,
        referrerEmail: referrer?.delivery_email ?? this.config.email.noreplyAddress,
        realmName: realm.name,
        realmUrl,
        activateUrl: joinUrl(realmUrl, key),
        expiresAt: invitation.expiresAt,
      }),
    );
  }
}

@CommandHandler(InviteUsersCommand)
export class InviteUsersHandler implements ICommandHandler<InviteUsersCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly realms: RealmQueries,
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly groups: UserGroupQueries,
    private readonly mails: InvitationMailer,
    private readonly vault: CredentialVault,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(RANDOM) private readonly random: RandomPort,
  ) {}

  async execute({ context: { actor }, request }: InviteUsersCommand): Promise<void> {
    // invite_users_backend's order: permission and roles, the addresses, then channels and groups.
    const mayInvite = await this.realms.inGroupSetting(actor, 'can_invite_users_group');
    checkMayInvite(actor, mayInvite, request.invitedAs, request.expiresInMinutes);
    if (request.inviteeEmails === '') throw new NoInviteeEmailsError();
    await checkChannelsAndGroups(this.channels, this.groups, this.realms, actor, request.streamIds, request.groupIds);
    const emails = parseInviteeEmails(request.inviteeEmails);
    const existing: Record<string, ExistingAccount> = {};
    for (const email of emails) {
      const user = await this.users.byEmail(actor.realmId, email);
      if (user) existing[email.toLowerCase()] = { deactivated: !user.is_active };
    }
    const { valid, skipped } = sortInvitees(emails, new Map(Object.entries(existing)));
    // Ids and keys for the addresses that may be invited; the decider checks the rest again.
    const keys = new Map<number, string>();
    const slots: { invitationId: number; keyDigest: string }[] = [];
    for (const email of emails) {
      if (!valid.includes(email)) {
        slots.push({ invitationId: 0, keyDigest: '' });
        continue;
      }
      const invitationId = await this.ids.next(INVITATION_SEQUENCE);
      const key = newConfirmationKey(this.random);
      keys.set(invitationId, key);
      slots.push({ invitationId, keyDigest: confirmationKeyDigest(key) });
    }
    // The keys are sealed in the credential store before the events naming their digests are
    // appended, and forgotten when the decider refuses.
    for (const [invitationId, key] of keys) await this.vault.storeInvitationKey(actor.realmId, actor.userId ?? 0, invitationId, key, confirmationKeyDigest(key));
    let newEvents;
    try {
      ({ newEvents } = await invitations(this.commands, actor, (meta) => ({
        type: 'InviteUsers',
        data: { ...meta, ...request, mayInvite, existing, slots },
      })));
    } catch (error) {
      for (const invitationId of keys.keys()) await this.vault.forget(invitationKeyEntryId(actor.realmId, invitationId));
      throw error;
    }
    for (const event of newEvents as InvitationCreated[]) {
      await this.mails.send(actor.realmId, actor.userId, event.data, keys.get(event.data.invitationId)!);
    }
    if (skipped.length > 0) {
      throw new InvitationError(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        skipped,
        { sentInvitations: true },
      );
    }
  }
}

@CommandHandler(ResendInvitationCommand)
export class ResendInvitationHandler implements ICommandHandler<ResendInvitationCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly queries: InvitationQueries,
    private readonly mails: InvitationMailer,
    private readonly vault: CredentialVault,
    @Inject(RANDOM) private readonly random: RandomPort,
  ) {}

  /**
   * do_send_user_invite_email: the same link again. An invitation made before its key was kept
   * (none in the store) gets a new key, so its earlier link stops working.
   */
  async execute({ context: { actor }, invitationId }: ResendInvitationCommand): Promise<void> {
    const kept = await this.vault.invitationKey(actor.realmId, invitationId);
    const key = kept ?? newConfirmationKey(this.random);
    const resend = () =>
      invitations(this.commands, actor, (meta) => ({ type: 'ResendInvitation', data: { ...meta, invitationId, keyDigest: confirmationKeyDigest(key) } }));
    if (kept !== null) await resend();
    else {
      const id = invitationKeyEntryId(actor.realmId, invitationId);
      const referrerId = (await this.queries.byId(actor.realmId, invitationId))?.invited_by_user_id ?? 0;
      await this.vault.storedFor(id, () => this.vault.storeInvitationKey(actor.realmId, referrerId, invitationId, key, confirmationKeyDigest(key)), resend);
    }
    const doc = (await this.queries.byId(actor.realmId, invitationId))!;
    const expiresAt = doc.expiry_date === null ? null : new Date(doc.expiry_date * 1000).toISOString();
    await this.mails.send(actor.realmId, doc.invited_by_user_id, { email: doc.email!, expiresAt }, key);
  }
}

@CommandHandler(RevokeInvitationCommand)
export class RevokeInvitationHandler implements ICommandHandler<RevokeInvitationCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context: { actor }, invitationId }: RevokeInvitationCommand): Promise<void> {
    await invitations(this.commands, actor, (meta) => ({ type: 'RevokeInvitation', data: { ...meta, invitationId } }));
    await this.vault.forget(invitationKeyEntryId(actor.realmId, invitationId));
  }
}

@CommandHandler(CreateMultiuseInvitationCommand)
export class CreateMultiuseInvitationHandler implements ICommandHandler<CreateMultiuseInvitationCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly realms: RealmQueries,
    private readonly channels: ChannelQueries,
    private readonly groups: UserGroupQueries,
    private readonly vault: CredentialVault,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ context: { actor }, request }: CreateMultiuseInvitationCommand): Promise<{ inviteLink: string }> {
    const mayCreate = await this.realms.inGroupSetting(actor, 'create_multiuse_invite_group');
    checkMayInvite(actor, mayCreate, request.invitedAs, request.expiresInMinutes);
    await checkChannelsAndGroups(this.channels, this.groups, this.realms, actor, request.streamIds, request.groupIds);
    const invitationId = await this.ids.next(INVITATION_SEQUENCE);
    const key = newConfirmationKey(this.random);
    const keyDigest = confirmationKeyDigest(key);
    await this.vault.storedFor(
      invitationKeyEntryId(actor.realmId, invitationId),
      () => this.vault.storeInvitationKey(actor.realmId, actor.userId ?? 0, invitationId, key, keyDigest),
      () => invitations(this.commands, actor, (meta) => ({ type: 'CreateMultiuseInvitation', data: { ...meta, ...request, mayCreate, invitationId, keyDigest } })),
    );
    return { inviteLink: joinUrl(this.config.externalUrl, key) };
  }
}

@CommandHandler(RevokeMultiuseInvitationCommand)
export class RevokeMultiuseInvitationHandler implements ICommandHandler<RevokeMultiuseInvitationCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context: { actor }, invitationId }: RevokeMultiuseInvitationCommand): Promise<void> {
    await invitations(this.commands, actor, (meta) => ({ type: 'RevokeMultiuseInvitation', data: { ...meta, invitationId } }));
    await this.vault.forget(invitationKeyEntryId(actor.realmId, invitationId));
  }
}
