import { Injectable } from '@nestjs/common';
import { TIMEZONE_SETTING, type UserSettingChanged } from '@app/domain';
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
    if (d.property !== TIMEZONE_SETTING) return own;
    const user = await this.users.byId(d.realmId, d.userId);
    if (!user) return own;
    return [...own, ...(await toRealm(c, d.realmId, { type: 'realm_user', op: 'update', person: { email: user.email, user_id: d.userId, timezone: d.newValue } }))];
  }
}
