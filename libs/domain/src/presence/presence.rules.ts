/**
 * Presence (zerver/actions/presence.py do_update_user_presence, zerver/lib/presence.py), as pure
 * functions. A user's presence is two times: when a client last said the user was active, and when
 * a client was last connected at all. Every client pings about once a minute; the store keeps the
 * latest times only (docs/presence.md), so these rules decide what one ping changes.
 */

/** settings.PRESENCE_PING_INTERVAL_SECS: how often clients should ping. */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
/** settings.OFFLINE_THRESHOLD_SECS: a user not heard from for longer looks offline. */
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 140;
/** settings.PRESENCE_UPDATE_MIN_FREQ_SECONDS: several open windows do not each move the times. */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** settings.PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS (legacy `presence` events). */
export const PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS = 70;
/** settings.USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: larger organizations get no live presence events. */
export const USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS = 100;
/** What GET /realm/presence and /register return when the client names no history limit (two weeks). */
export const DEFAULT_PRESENCE_HISTORY_DAYS = 14;

export type PresenceStatus = 'active' | 'idle';

/** UserPresence.status_from_string. */
export const parsePresenceStatus = (status: string): PresenceStatus | null => (status === 'active' || status === 'idle' ? status : null);

/** A user's presence, in seconds since the epoch (UserPresence's columns). */
export type PresenceTimes = { lastActiveTime: number | null; lastConnectedTime: number };
export type PresenceRow = PresenceTimes & { userId: number; realmId: number; lastUpdateId: number };

/** What one ping changes: the new times (null: nothing to write) and whether others learn at once. */
export type PresenceDecision = { write: PresenceTimes | null; notify: boolean };

/**
 * do_update_user_presence. `previous` is the stored row (null: the user's first ping); `now` in
 * seconds. A user is "newly online" when not active for longer than the offline threshold minus one
 * ping interval and ten seconds; only then (or on the first ping) are other users told at once.
 */
export function decidePresencePing(previous: PresenceTimes | null, status: PresenceStatus, now: number): PresenceDecision {
  const active = status === 'active';
  if (previous === null) return { write: { lastActiveTime: active ? now : null, lastConnectedTime: now }, notify: true };
  const day = 24 * 60 * 60;
  const sinceActive = previous.lastActiveTime === null ? day : now - previous.lastActiveTime;
  const sinceConnected = now - previous.lastConnectedTime;
  const becameOnline = active && sinceActive > PRESENCE_OFFLINE_THRESHOLD_SECONDS - PRESENCE_PING_INTERVAL_SECONDS - 10;
  let { lastActiveTime, lastConnectedTime } = previous;
  let changed = false;
  if (sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    lastConnectedTime = now;
    changed = true;
  }
  if (active && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    lastActiveTime = now;
    // last_connected_time >= last_active_time.
    if (now > lastConnectedTime) lastConnectedTime = now;
    changed = true;
  }
  return { write: changed ? { lastActiveTime, lastConnectedTime } : null, notify: becameOnline };
}

/** The modern shape (slim_presence / last_update_id): get_modern_user_presence_info. */
export type ModernPresence = { active_timestamp: number; idle_timestamp: number };
/** One client's entry in the legacy shape. */
export type LegacyClientPresence = { client: string; status: PresenceStatus; timestamp: number; pushable: boolean };
/** The legacy shape: `website` and `aggregated` (get_legacy_user_presence_info). */
export type LegacyPresence = { website: LegacyClientPresence; aggregated: { client: string; status: PresenceStatus; timestamp: number } };

/** user_presence_datetime_with_date_joined_default: a user never active counts as active when they joined. */
const activeOrJoined = (times: PresenceTimes, joined: number) => times.lastActiveTime ?? joined;

export function modernPresence(times: PresenceTimes, joined: number): ModernPresence {
  return { active_timestamp: Math.floor(activeOrJoined(times, joined)), idle_timestamp: Math.floor(times.lastConnectedTime) };
}

/**
 * get_legacy_user_presence_info: the one client entry (always `website`, as Zulip since 7.0) and
 * `aggregated`, the same without `pushable`.
 */
export function legacyPresence(times: PresenceTimes, joined: number): LegacyPresence {
  const website = legacyEventPresence(times, joined);
  return { website, aggregated: { client: website.client, status: website.status, timestamp: website.timestamp } };
}

/**
 * How a user who turned `presence_enabled` off is shown (do_change_user_setting): as never active
 * since joining and last connected the offline threshold plus two minutes before their last
 * recorded time, so every client shows them offline; their pings are not recorded meanwhile.
 * Zulip rewrites the row when the setting changes; here the stored row is kept and masked when
 * read, so turning the setting on again restores what was there.
 */
export const PRESENCE_HIDDEN_OFFSET_SECONDS = PRESENCE_OFFLINE_THRESHOLD_SECONDS + 120;
export function hiddenPresence(times: PresenceTimes): PresenceTimes {
  return { lastActiveTime: null, lastConnectedTime: times.lastConnectedTime - PRESENCE_HIDDEN_OFFSET_SECONDS };
}

/** format_legacy_presence_dict: the one client entry of a live `presence` event. */
export function legacyEventPresence(times: PresenceTimes, joined: number): LegacyClientPresence {
  const lastActive = activeOrJoined(times, joined);
  const active = lastActive + PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS >= times.lastConnectedTime;
  return { client: 'website', status: active ? 'active' : 'idle', timestamp: Math.floor(active ? lastActive : times.lastConnectedTime), pushable: false };
}
