import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PRESENCE_HISTORY_DAYS,
  type LegacyPresence,
  type ModernPresence,
  type PresenceTimes,
  hiddenPresence,
  legacyPresence,
  modernPresence,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { PRESENCE_STORE, type PresenceStorePort } from '../ports/presence-store.port';
import type { ReadStorePort } from '../ports/read-store.port';
import { CLOCK, READ_STORE } from '../ports/tokens';
import { USER_SETTINGS_COLLECTION } from '../settings/user-settings.documents';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { UserQueries } from '../users/user.queries';
import { USERS, type UserDocument } from '../users/user.documents';

export type PresenceListOptions = {
  /** Keys by user id in the modern shape (slim_presence, or any last_update_id). */
  slim: boolean;
  /** Only rows saved after this id (the modern protocol); also turns `slim` on. */
  lastUpdateId?: number;
  /** Only users connected within this many days (default: two weeks; 0: nobody). */
  historyLimitDays?: number;
};

export type PresenceResponse = {
  presences: Record<string, ModernPresence | LegacyPresence>;
  server_timestamp: number;
  /** The newest update id among the rows (the client's own, or -1, when there is none). */
  presence_last_update_id: number;
};

const joinedSeconds = (user: UserDocument) => Date.parse(user.date_joined) / 1000;

/** What an answer needs of a user: active humans only. */
type PresenceUser = { email: string; joined: number };
type Directory = { users: Map<number, PresenceUser>; hidden: Set<number> };

/**
 * Reads of presence (zerver/lib/presence.py): the organization's (`POST /users/me/presence`,
 * `GET /realm/presence`, /register's `presences`) and one user's (`GET /users/{id}/presence`).
 * Only active humans appear. A user who turned `presence_enabled` off is shown as connected long
 * enough ago to look offline (hiddenPresence), as Zulip's invisible mode does.
 */
@Injectable()
export class PresenceQueries {
  constructor(
    @Inject(PRESENCE_STORE) private readonly store: PresenceStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly users: UserQueries,
    private readonly settings: UserSettingsQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
  ) {}

  /**
   * An organization's active humans and who hides their presence, kept between answers while the
   * users and user_settings collections do not change (their read-store change stamps, as
   * CachedDocuments does; read every time on a store without stamps). Every client asks for the
   * whole organization's presence about once a minute: parsing every user document for each answer
   * was most of its cost (bench/presence.ts).
   */
  private readonly directories = new Map<number, Directory & { stamps: string }>();

  private async directory(realmId: number): Promise<Directory> {
    const stamps = () => `${this.readStore.changeStamp?.(USERS) ?? NaN}:${this.readStore.changeStamp?.(USER_SETTINGS_COLLECTION) ?? NaN}`;
    const before = stamps();
    const cached = this.directories.get(realmId);
    if (cached && cached.stamps === before && !before.includes('NaN')) return cached;
    const [list, hidden] = await Promise.all([this.users.list(realmId, { includeDeactivated: false, includeBots: false }), this.settings.presenceDisabledUserIds(realmId)]);
    const directory = { users: new Map(list.map((u) => [u.user_id, { email: u.email, joined: joinedSeconds(u) }])), hidden };
    if (!before.includes('NaN') && stamps() === before) this.directories.set(realmId, { ...directory, stamps: before });
    return directory;
  }

  /** get_presence_dict_by_realm. */
  async forRealm(realmId: number, options: PresenceListOptions): Promise<PresenceResponse> {
    const now = this.clock.now().getTime() / 1000;
    const days = options.historyLimitDays ?? DEFAULT_PRESENCE_HISTORY_DAYS;
    const slim = options.slim || options.lastUpdateId !== undefined;
    // A client that already holds data (last_update_id > 0) gets every change since, however old
    // the user's connection; history_limit_days 0 asks for nothing at all.
    const connectedSince = options.lastUpdateId !== undefined && options.lastUpdateId > 0 ? 0 : now - days * 86_400;
    const rows = days === 0 ? [] : await this.store.list(realmId, { connectedSince, afterUpdateId: options.lastUpdateId });
    const presences: PresenceResponse['presences'] = {};
    let newest: number | undefined;
    if (rows.length > 0) {
      const { users, hidden } = await this.directory(realmId);
      for (const row of rows) {
        const user = users.get(row.userId);
        if (!user) continue;
        newest = Math.max(newest ?? -1, row.lastUpdateId);
        const times = hidden.has(row.userId) ? hiddenPresence(row) : row;
        if (slim) presences[String(row.userId)] = modernPresence(times, user.joined);
        else presences[user.email] = legacyPresence(times, user.joined);
      }
    }
    return { presences, server_timestamp: now, presence_last_update_id: newest ?? options.lastUpdateId ?? -1 };
  }

  /** One user's times (masked when they hide their presence), or null before their first ping. */
  async ofUser(user: UserDocument): Promise<PresenceTimes | null> {
    const [row, settings] = await Promise.all([this.store.get(user.user_id), this.settings.settingsOf(user.user_id)]);
    if (!row) return null;
    return settings.presence_enabled ? row : hiddenPresence(row);
  }
}
