import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { formatUser, type ProfileDataValue, formatBotDict } from './user-format';
import { UserProfileData } from './user-profile-data';
import { UserQueries } from './user.queries';
import { RealmQueries } from '../realms/realm.queries';
import { type Actor, canCreatePrivateChannels, canCreatePublicChannels, canSubscribeOthersToAccessibleChannels, isAdministrator } from '@app/domain';
import { isSystemBot, type UserDocument } from './user.documents';

/**
 * `realm_user` (fetch_initial_state_data): the organization's users, active (`realm_users`) and
 * deactivated (`realm_non_active_users`), the system bots (`cross_realm_bots`), and the user's own
 * identity and permissions (`user_id`, `email`, `full_name`, `is_admin`, …, `can_create_*`).
 * `realm_bot`: the bots the user administers (get_owned_bot_dicts: an administrator's are every
 * bot of the organization), with their API keys.
 * `realm_embedded_bots` and `realm_incoming_webhook_bots`: present and empty (no embedded bots or
 * integrations on this server).
 */
@Injectable()
export class UsersRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly users: UserQueries,
    private readonly profileFields: UserProfileData,
    private readonly realms: RealmQueries,
  ) {}

  registerSections(): RegisterSection[] {
    return [
      { fetchType: 'realm_user', read: (actor) => this.realmUsers(actor) },
      { fetchType: 'realm_bot', read: async (actor) => ({ realm_bots: await this.realmBots(actor) }) },
      { fetchType: 'realm_embedded_bots', read: async () => ({ realm_embedded_bots: [] }) },
      { fetchType: 'realm_incoming_webhook_bots', read: async () => ({ realm_incoming_webhook_bots: [] }) },
    ];
  }

  private async realmUsers(actor: Actor): Promise<Record<string, unknown>> {
    const [users, profileData, canInvite] = await Promise.all([
      this.users.list(actor.realmId),
      this.profileFields.profileData(actor.realmId),
      this.realms.inGroupSetting(actor, 'can_invite_users_group'),
    ]);
    // get_custom_profile_field_values; the read model spells an absent rendering as null.
    const format = (u: UserDocument) => formatUser(u, actor, { profileData: (profileData.get(u.user_id) ?? {}) as Record<string, ProfileDataValue> });
    const systemBots = users.filter(isSystemBot);
    const members = users.filter((u) => !isSystemBot(u));
    const me = users.find((u) => u.user_id === actor.userId);
    const role = actor.role;
    const canCreatePublic = canCreatePublicChannels(role);
    const canCreatePrivate = canCreatePrivateChannels(role);
    return {
      realm_users: members.filter((u) => u.is_active).map(format),
      realm_non_active_users: members.filter((u) => !u.is_active).map(format),
      // get_cross_realm_dicts: the system bots, as user objects with is_system_bot.
      cross_realm_bots: systemBots.map((u) => ({ ...formatUser(u, actor), is_system_bot: true })),
      avatar_source: 'G',
      avatar_url_medium: `/avatar/${actor.userId}/medium`,
      avatar_url: `/avatar/${actor.userId}`,
      can_create_private_streams: canCreatePrivate,
      can_create_public_streams: canCreatePublic,
      can_create_streams: canCreatePrivate || canCreatePublic,
      // WEB_PUBLIC_STREAMS_ENABLED is off on this server.
      can_create_web_public_streams: false,
      can_subscribe_other_users: canSubscribeOthersToAccessibleChannels(role),
      // can_invite_users_by_email: in can_invite_users_group (guests never are).
      can_invite_others_to_realm: canInvite && role !== 'guest',
      is_admin: isAdministrator(actor),
      is_owner: me?.is_owner ?? false,
      is_moderator: role === 'moderator',
      is_guest: role === 'guest',
      is_billing_admin: me?.is_billing_admin ?? false,
      user_id: actor.userId,
      email: me?.email ?? '',
      delivery_email: me?.delivery_email ?? '',
      full_name: me?.full_name ?? '',
    };
  }

  /** get_owned_bot_dicts: each bot with its API key, owner and (absent here) default channels and services. */
  private async realmBots(actor: Actor): Promise<Record<string, unknown>[]> {
    if (actor.userId === null) return [];
    const bots = isAdministrator(actor)
      ? await this.users.listBots(actor.realmId, { includeDeactivated: true })
      : await this.users.botsOwnedBy(actor.realmId, actor.userId, { includeDeactivated: true });
    const out: Record<string, unknown>[] = [];
    for (const bot of bots.filter((b) => !isSystemBot(b))) {
      out.push(formatBotDict(bot, await this.users.apiKeyById(bot.user_id)));
    }
    return out;
  }
}
