import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PRESENCE_HISTORY_DAYS,
  type LegacyPresence,
  type ModernPresence,
  type PresenceRow,
  legacyPresence,
  modernPresence,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { PRESENCE_STORE, type PresenceStorePort } from '../ports/presence-store.port';
import { CLOCK } from '../ports/tokens';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { UserQueries } from '../users/user.queries';
import type { UserDocument } from '../users/user.documents';

export type PresenceListOptions = {
  /** Keys by user id in the modern shape (slim_presence, or any last_update_id). */
  slim: boolean;
  /** Only rows saved after this id (the modern protocol); also turns `slim` on. */
  lastUpdateId?: number;
  /** Only users connected within this many days (default: two weeks). */
  historyLimitDays?: number;
};

export type PresenceResponse = {
  presences: Record<string, ModernPresence | LegacyPresence>;
  server_timestamp: number;
  /** The newest update id among the rows (the client's own, or -1, when there is none). */
  presence_last_update_id: number;
};

const joinedSeconds = (user: UserDocument) => Date.parse(user.date_joined) / 1000;

/**
 * Reads of presence (zerver/lib/presence.py): the organization's (`POST /users/me/presence`,
 * `GET /realm/presence`, /register's `presences`) and one user's (`GET /users/{id}/presence`).
 * Only active humans who share their presence (`presence_enabled`) appear: a hidden user looks
 * offline (no data), as Zulip's invisible mode intends.
 */
@Injectable()
export class PresenceQueries {
  constructor(
    @Inject(PRESENCE_STORE) private readonly store: PresenceStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly users: UserQueries,
    private readonly settings: UserSettingsQueries,
  ) {}

  async forRealm(realmId: number, options: PresenceListOptions): Promise<PresenceResponse> {
    const now = this.clock.now().getTime() / 1000;
    const days = options.historyLimitDays ?? DEFAULT_PRESENCE_HISTORY_DAYS;
    const rows = await this.store.list(realmId, { connectedSince: now - days * 86_400, afterUpdateId: options.lastUpdateId });
    const slim = options.slim || options.lastUpdateId !== undefined;
    const presences: PresenceResponse['presences'] = {};
    let newest = options.lastUpdateId ?? -1;
    if (rows.length > 0) {
      const [users, hidden] = await Promise.all([this.users.list(realmId, { includeDeactivated: false }), this.settings.presenceDisabledUserIds(realmId)]);
      const byId = new Map(users.map((u) => [u.user_id, u]));
      for (const row of rows) {
        newest = Math.max(newest, row.lastUpdateId);
        const user = byId.get(row.userId);
        if (!user || user.is_bot || hidden.has(row.userId)) continue;
        if (slim) presences[String(row.userId)] = modernPresence(row, joinedSeconds(user));
        else presences[user.email] = legacyPresence(row, joinedSeconds(user), now);
      }
    }
    return { presences, server_timestamp: now, presence_last_update_id: newest };
  }

  /** One user's row, or null when there is none or the user hides their presence. */
  async ofUser(user: UserDocument): Promise<PresenceRow | null> {
    const [row, settings] = await Promise.all([this.store.get(user.user_id), this.settings.settingsOf(user.user_id)]);
    return row && settings.presence_enabled ? row : null;
  }
}
