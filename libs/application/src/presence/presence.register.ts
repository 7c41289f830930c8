import { Injectable } from '@nestjs/common';
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from '@app/domain';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { PresenceQueries } from './presence.queries';

/**
 * `presence`: `presences` (by email in the legacy shape; by user id in the modern one with
 * `slim_presence`), `presence_last_update_id`, `server_timestamp`, and the server's ping interval
 * and offline threshold (Zulip sends those two with every register; here with this section).
 */
@Injectable()
export class PresenceRegisterSections implements AreaRegisterSections {
  constructor(private readonly presence: PresenceQueries) {}

  registerSections(): RegisterSection[] {
    return [
      {
        fetchType: 'presence',
        read: async (actor, options) => {
          const response = await this.presence.forRealm(actor.realmId, {
            slim: options.slimPresence ?? false,
            lastUpdateId: options.presenceLastUpdateId,
            historyLimitDays: options.presenceHistoryLimitDays,
          });
          return {
            ...response,
            server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
            server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECONDS,
          };
        },
      },
    ];
  }
}
