import { Injectable } from '@nestjs/common';
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from '@app/domain';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { PresenceQueries } from './presence.queries';

/**
 * The presence protocol's parameters, in every /register answer (Zulip sends them with the realm
 * section, which every client fetches; the register controller adds them as it adds API_LIMITS).
 */
export const PRESENCE_INTERVALS = {
  server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
  server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECONDS,
} as const;

/**
 * `presence`: `presences` (by email in the legacy shape; by user id in the modern one with
 * `slim_presence` or `presence_last_update_id`), `presence_last_update_id` and `server_timestamp`
 * (fetch_initial_state_data).
 */
@Injectable()
export class PresenceRegisterSections implements AreaRegisterSections {
  constructor(private readonly presence: PresenceQueries) {}

  registerSections(): RegisterSection[] {
    return [
      {
        fetchType: 'presence',
        read: (actor, options) =>
          this.presence.forRealm(actor.realmId, {
            slim: options.slimPresence ?? false,
            lastUpdateId: options.presenceLastUpdateId,
            historyLimitDays: options.presenceHistoryLimitDays,
          }),
      },
    ];
  }
}
