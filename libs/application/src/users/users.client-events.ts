import { Injectable } from '@nestjs/common';
import {
  type BotOwnerChanged,
  ROLE_VALUES,
  type UserCreated,
  type UserDeactivated,
  type UserApiKeyRegenerated,
  type UserEmailChanged,
  type UserFullNameChanged,
  type UserReactivated,
  type UserRoleChanged,
} from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { realmWide, toRealm } from '../events/deliveries';
import { formatUser, formatBotDict } from './user-format';
import { UserQueries } from './user.queries';
import { CredentialVault } from '../shared/credential-vault';
import { isSystemBot, type UserDocument } from './user.documents';

/** `realm_user` events (zerver/actions/create_user.py, users.py, user_settings.py). */
@Injectable()
export class UsersClientEvents implements AreaClientEvents {
  constructor(
    private readonly users: UserQueries,
    private readonly vault: CredentialVault,
  ) {}

  /** The key an event put in use ('' once a later regeneration superseded it: that one's event carries the current key). */
  private async apiKeyOf(apiKeyId: string): Promise<string> {
    return (await this.vault.apiKey(apiKeyId)) ?? '';
  }

  clientEvents(): ClientEventMapperList {
    const both = async (...parts: Promise<ClientEventDelivery[]>[]) => (await Promise.all(parts)).flat();
    return {
      UserCreated: (e: Recorded<UserCreated>, c) => both(this.userAdded(e.data.realmId, e.data.userId, c), this.botAdded(e)),
      UserFullNameChanged: (e: Recorded<UserFullNameChanged>, c) =>
        both(this.personUpdate(e.data.realmId, { user_id: e.data.userId, full_name: e.data.newName }, c), this.botUpdate(e.data.realmId, e.data.userId, { full_name: e.data.newName })),
      UserRoleChanged: (e: Recorded<UserRoleChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, role: ROLE_VALUES[e.data.newRole] }, c),
      // Since feature level 222 deactivation and reactivation are `update`s of is_active.
      UserDeactivated: (e: Recorded<UserDeactivated>, c) =>
        both(this.personUpdate(e.data.realmId, { user_id: e.data.userId, is_active: false }, c), this.botUpdate(e.data.realmId, e.data.userId, { is_active: false })),
      UserReactivated: (e: Recorded<UserReactivated>, c) =>
        both(this.personUpdate(e.data.realmId, { user_id: e.data.userId, is_active: true }, c), this.botUpdate(e.data.realmId, e.data.userId, { is_active: true })),
      UserEmailChanged: (e: Recorded<UserEmailChanged>, c) => this.emailChanged(e, c),
      // The event says only that the key changed: the key itself comes from the credential store.
      UserApiKeyRegenerated: async (e: Recorded<UserApiKeyRegenerated>) => this.botUpdate(e.data.realmId, e.data.userId, { api_key: await this.apiKeyOf(e.data.apiKeyId) }),
      // do_change_bot_owner: realm_user update to everyone, and the realm_bot events.
      BotOwnerChanged: (e: Recorded<BotOwnerChanged>, c) =>
        both(this.personUpdate(e.data.realmId, { user_id: e.data.userId, bot_owner_id: e.data.newOwnerId }, c), this.botOwnerChanged(e)),
    };
  }

  /** bot_owner_user_ids: who has the bot in `realm_bots`: its owner and the organization's administrators. */
  private async botAudience(realmId: number, bot: UserDocument): Promise<number[]> {
    const admins = [...(await this.activeUsers(realmId)).values()].filter((u) => u.is_admin && !u.is_bot).map((u) => u.user_id);
    return [...new Set([...admins, ...(bot.bot_owner_id !== null ? [bot.bot_owner_id] : [])])];
  }

  /** The bot of an event, when it is one that `realm_bots` lists (not a human, not a system bot). */
  private async listedBot(realmId: number, userId: number): Promise<UserDocument | null> {
    const user = await this.users.byId(realmId, userId);
    return user && user.is_bot && !isSystemBot(user) ? user : null;
  }

  /** created_bot_event: realm_bot add, with the bot's API key, to its owner and the administrators. */
  private async botAdded(e: Recorded<UserCreated>): Promise<ClientEventDelivery[]> {
    if (!e.data.isBot) return [];
    const bot = await this.listedBot(e.data.realmId, e.data.userId);
    if (!bot) return [];
    return [{ userIds: await this.botAudience(e.data.realmId, bot), event: { type: 'realm_bot', op: 'add', bot: formatBotDict(bot, await this.apiKeyOf(e.data.apiKeyId)) } }];
  }

  /** realm_bot update of one or more fields (do_change_full_name, do_deactivate_user, do_regenerate_api_key, …). */
  private async botUpdate(realmId: number, userId: number, fields: Record<string, unknown>): Promise<ClientEventDelivery[]> {
    const bot = await this.listedBot(realmId, userId);
    if (!bot) return [];
    return [{ userIds: await this.botAudience(realmId, bot), event: { type: 'realm_bot', op: 'update', bot: { user_id: userId, ...fields } } }];
  }

  /**
   * do_change_bot_owner: realm_bot delete to the previous owner and add to the new one (unless
   * they are administrators, who list every bot), and update of owner_id to the audience.
   */
  private async botOwnerChanged(e: Recorded<BotOwnerChanged>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const bot = await this.listedBot(d.realmId, d.userId);
    if (!bot) return [];
    const users = await this.activeUsers(d.realmId);
    const notAdmin = (id: number | null): id is number => id !== null && users.get(id) !== undefined && !users.get(id)!.is_admin;
    const out: ClientEventDelivery[] = [];
    if (notAdmin(d.oldOwnerId) && d.oldOwnerId !== d.newOwnerId) out.push({ userIds: [d.oldOwnerId], event: { type: 'realm_bot', op: 'delete', bot: { user_id: d.userId } } });
    if (notAdmin(d.newOwnerId)) {
      out.push({ userIds: [d.newOwnerId], event: { type: 'realm_bot', op: 'add', bot: formatBotDict(bot, await this.users.apiKeyById(d.userId)) } });
    }
    out.push({ userIds: await this.botAudience(d.realmId, bot), event: { type: 'realm_bot', op: 'update', bot: { user_id: d.userId, owner_id: d.newOwnerId } } });
    return out;
  }

  /** notify_created_user: the new user as each viewer sees them (delivery_email depends on the viewer). */
  private async userAdded(realmId: number, userId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const user = await this.users.byId(realmId, userId);
    // A system bot (Notification Bot) is not one of the organization's users: no realm_user event.
    if (!user || isSystemBot(user)) return [];
    const viewers = await this.activeUsers(realmId);
    // A new user has no profile data yet (Zulip's add event carries the empty dict).
    const event = { type: 'realm_user', op: 'add', person: formatUser(user, null, { profileData: {} }) };
    return [
      {
        userIds: await realmWide(c, realmId),
        event,
        perUser: (viewerId) => {
          const viewer = viewers.get(viewerId);
          return viewer ? { ...event, person: formatUser(user, { realmId, userId: viewerId, role: viewer.role_name, isBot: viewer.is_bot }, { profileData: {} }) } : event;
        },
      },
    ];
  }

  /**
   * do_change_user_delivery_email: `delivery_email` to the viewers who may see it, and `new_email`
   * to everyone when the email the API shows changed with it.
   */
  private async emailChanged(e: Recorded<UserEmailChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const user = await this.users.byId(d.realmId, d.userId);
    if (!user) return [];
    const viewers = await this.activeUsers(d.realmId);
    const out: ClientEventDelivery[] = [];
    const seeing = [...viewers.values()].filter(
      (v) => formatUser(user, { realmId: d.realmId, userId: v.user_id, role: v.role_name, isBot: v.is_bot }).delivery_email !== null,
    );
    out.push({ userIds: seeing.map((v) => v.user_id), event: { type: 'realm_user', op: 'update', person: { user_id: d.userId, delivery_email: user.delivery_email } } });
    if (user.email === d.newEmail) {
      out.push(...(await toRealm(c, d.realmId, { type: 'realm_user', op: 'update', person: { user_id: d.userId, new_email: user.email } })));
    }
    return out;
  }

  private personUpdate(realmId: number, person: Record<string, unknown>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'realm_user', op: 'update', person });
  }

  private async activeUsers(realmId: number): Promise<Map<number, UserDocument>> {
    const users = await this.users.list(realmId, { includeDeactivated: false });
    return new Map(users.map((u) => [u.user_id, u]));
  }
}
