import { Injectable } from '@nestjs/common';
import { PRESENCE_HIDDEN_OFFSET_SECONDS, type PresenceTimes, type UserSettingChanged, legacyEventPresence, modernPresence } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventMapperList, Recorded } from '../events/client-event-registry';
import type { ClientEvent } from '../events/event-queue';
import { USERS, type UserDocument } from '../users/user.documents';

/**
 * A `presence` event in both of Zulip's shapes (send_presence_changed): the legacy fields
 * (`user_id`, `email`, `server_timestamp`, `presence: {website: …}`) and the modern `presences`
 * (by user id). Each queue keeps the shape its client asked for (EventQueue.adapt): `presences`
 * alone with the `simplified_presence_events` capability, the legacy fields otherwise, without
 * `email` for `slim_presence` clients.
 */
export function presenceClientEvent(user: Pick<UserDocument, 'user_id' | 'email' | 'date_joined'>, times: PresenceTimes, serverTimestamp: number): ClientEvent {
  const joined = Date.parse(user.date_joined) / 1000;
  const legacy = legacyEventPresence(times, joined);
  return {
    type: 'presence',
    user_id: user.user_id,
    email: user.email,
    server_timestamp: serverTimestamp,
    presence: { [legacy.client]: legacy },
    presences: { [String(user.user_id)]: modernPresence(times, joined) },
  };
}

/**
 * Live `presence` events of users coming online are not in the log (UpdatePresenceHandler sends
 * them on the bus). From the log: turning `presence_enabled` off or on (do_change_user_setting's
 * forced presence update) tells every active user at once, whatever the organization's size: off,
 * that the user was last connected longer ago than the offline threshold (they look offline);
 * on, that they are active now.
 */
@Injectable()
export class PresenceClientEvents implements AreaClientEvents {
  clientEvents(): ClientEventMapperList {
    return {
      UserSettingChanged: async (e: Recorded<UserSettingChanged>, context) => {
        if (e.data.property !== 'presence_enabled' || e.data.newValue === e.data.oldValue) return [];
        const user = await context.readStore.get<UserDocument>(USERS, String(e.data.userId));
        if (!user) return [];
        const at = Date.parse(e.data.at) / 1000;
        const times: PresenceTimes = e.data.newValue === false ? { lastActiveTime: null, lastConnectedTime: at - PRESENCE_HIDDEN_OFFSET_SECONDS } : { lastActiveTime: at, lastConnectedTime: at };
        return [{ userIds: await context.activeUserIds(e.data.realmId), event: presenceClientEvent(user, times, at) }];
      },
    };
  }
}
