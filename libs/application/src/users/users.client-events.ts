import { Injectable } from '@nestjs/common';
import {
  type BotOwnerChanged,
  ROLE_VALUES,
  type UserCreated,
  type UserDeactivated,
  type UserEmailChanged,
  type UserFullNameChanged,
  type UserReactivated,
  type UserRoleChanged,
} from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../events/client-event-mappers';
import { realmWide, toRealm } from '../events/deliveries';
import { formatUser } from './user-format';
import { isSystemBot, type UserDocument } from './user.documents';
import { UserQueries } from './user-queries';

/** `realm_user` events (zerver/actions/create_user.py, users.py, user_settings.py). */
@Injectable()
export class UsersClientEvents implements AreaClientEvents {
  constructor(private readonly users: UserQueries) {}

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      UserCreated: (e: Recorded<UserCreated>, c) => this.userAdded(e.data.realmId, e.data.userId, c),
      UserFullNameChanged: (e: Recorded<UserFullNameChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, full_name: e.data.newName }, c),
      UserRoleChanged: (e: Recorded<UserRoleChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, role: ROLE_VALUES[e.data.newRole] }, c),
      // Since feature level 222 deactivation and reactivation are `update`s of is_active.
      UserDeactivated: (e: Recorded<UserDeactivated>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, is_active: false }, c),
      UserReactivated: (e: Recorded<UserReactivated>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, is_active: true }, c),
      UserEmailChanged: (e: Recorded<UserEmailChanged>, c) => this.emailChanged(e, c),
      // do_change_bot_owner's realm_user update (its realm_bot events need bot state in /register).
      BotOwnerChanged: (e: Recorded<BotOwnerChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, bot_owner_id: e.data.newOwnerId }, c),
    };
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
