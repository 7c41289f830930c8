import type { PresenceRow, PresenceTimes } from '@app/domain';

/**
 * Users' presence: the latest two times per user (UserPresence) and a per-organization update
 * counter (PresenceSequence), kept outside the event log because every client pings once a minute
 * and only the latest value matters (docs/presence.md). Embedded: a SQLite file of its own;
 * servers: MongoDB collections. Losing it loses nothing of value: users look offline until their
 * next ping.
 */
export interface PresenceStorePort {
  /** One user's presence, or null before their first ping. */
  get(userId: number): Promise<PresenceRow | null>;
  /**
   * Writes a user's times and gives the row the organization's next `last_update_id` (from 1,
   * increasing with every save in the organization); returns that id.
   */
  save(realmId: number, userId: number, times: PresenceTimes): Promise<number>;
  /**
   * The organization's rows connected at or after `connectedSince` (seconds), and with
   * `afterUpdateId` only those saved after it, by user id.
   */
  list(realmId: number, options: { connectedSince: number; afterUpdateId?: number }): Promise<PresenceRow[]>;
  close(): Promise<void>;
}

export const PRESENCE_STORE = Symbol('PRESENCE_STORE');
