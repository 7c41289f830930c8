import { Injectable } from '@nestjs/common';
import type { UserSettingChanged } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventMapper, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';

/** do_change_user_setting: `user_settings` `update` to the user. */
@Injectable()
export class SettingsClientEvents implements AreaClientEvents {
  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      UserSettingChanged: (e: Recorded<UserSettingChanged>) =>
        toUser(e.data.userId, { type: 'user_settings', op: 'update', property: e.data.property, value: e.data.newValue }),
    };
  }
}
