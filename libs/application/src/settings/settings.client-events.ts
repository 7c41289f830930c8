import { Injectable } from '@nestjs/common';
import { canAccessDeliveryEmail, EMAIL_ADDRESS_VISIBILITY, TIMEZONE_SETTING, type UserSettingChanged } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toRealm, toUser } from '../events/deliveries';
import { UserQueries } from '../users/user.queries';

/**
 * do_change_user_setting: `user_settings` `update` to the user; for the time zone, then also
 * `realm_user` `update` (`email`, `user_id`, `timezone`) to everyone ("Updates to the time zone
 * display setting are sent to all users"; this server has no limited guest access, so everyone
 * who can access the user is every active user).
 */
@Injectable()
export class SettingsClientEvents implements AreaClientEvents {
  constructor(private readonly users: UserQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      UserSettingChanged: (e: Recorded<UserSettingChanged>, c) => this.settingChanged(e, c),
    };
  }

  private async settingChanged(e: Recorded<UserSettingChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const own = toUser(d.userId, { type: 'user_settings', op: 'update', property: d.property, value: d.newValue });
    if (d.property === 'email_address_visibility') return [...own, ...(await this.visibilityChanged(e, c))];
    if (d.property !== TIMEZONE_SETTING) return own;
    const user = await this.users.byId(d.realmId, d.userId);
    if (!user) return own;
    return [...own, ...(await toRealm(c, d.realmId, { type: 'realm_user', op: 'update', person: { email: user.email, user_id: d.userId, timezone: d.newValue } }))];
  }

  /**
   * do_change_user_setting("email_address_visibility"): send_delivery_email_update_events
   * (`delivery_email` to each other active user who gains it, `null` to each who loses it), then,
   * when the shown address changed (to or from "everyone"), `new_email` to everyone.
   */
  private async visibilityChanged(e: Recorded<UserSettingChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const user = await this.users.byId(d.realmId, d.userId);
    if (!user) return [];
    const [before, after] = [Number(d.oldValue), Number(d.newValue)];
    const gained: number[] = [];
    const lost: number[] = [];
    for (const viewer of await this.users.list(d.realmId, { includeDeactivated: false })) {
      if (viewer.user_id === d.userId) continue;
      const who = { userId: viewer.user_id, role: viewer.role_name };
      const could = canAccessDeliveryEmail(who, d.userId, before);
      const can = canAccessDeliveryEmail(who, d.userId, after);
      if (can && !could) gained.push(viewer.user_id);
      if (could && !can) lost.push(viewer.user_id);
    }
    const update = (person: Record<string, unknown>) => ({ type: 'realm_user', op: 'update', person: { user_id: d.userId, ...person } });
    const out: ClientEventDelivery[] = [];
    if (gained.length > 0) out.push({ userIds: gained, event: update({ delivery_email: user.delivery_email }) });
    if (lost.length > 0) out.push({ userIds: lost, event: update({ delivery_email: null }) });
    const everyone = EMAIL_ADDRESS_VISIBILITY.everyone;
    if (before === everyone || after === everyone) out.push(...(await toRealm(c, d.realmId, update({ new_email: after === everyone ? user.delivery_email : (d.dummyEmail ?? user.email) }))));
    return out;
  }
}
