import { Injectable } from '@nestjs/common';
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS, type UserSettingChanged } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventMapper, Recorded } from '../events/client-event-mappers';
import { USERS, type UserDocument } from '../users/user.documents';

/**
 * Live `presence` events of users coming online are not in the log (UpdatePresenceHandler sends
 * them on the bus). From the log: a user who turns `presence_enabled` off is shown to everyone as
 * last connected longer ago than the offline threshold, so clients show them offline at once
 * instead of when their last ping ages out.
 */
@Injectable()
export class PresenceClientEvents implements AreaClientEvents {
  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      UserSettingChanged: async (e: Recorded<UserSettingChanged>, context) => {
        if (e.data.property !== 'presence_enabled' || e.data.newValue !== false || e.data.oldValue === false) return [];
        const user = await context.readStore.get<UserDocument>(USERS, String(e.data.userId));
        if (!user) return [];
        const at = Date.parse(e.data.at) / 1000;
        const website = { client: 'website', status: 'idle', timestamp: Math.floor(at - PRESENCE_OFFLINE_THRESHOLD_SECONDS - 1), pushable: false };
        return [{ userIds: await context.activeUserIds(e.data.realmId), event: { type: 'presence', email: user.email, user_id: user.user_id, server_timestamp: at, presence: { website } } }];
      },
    };
  }
}
