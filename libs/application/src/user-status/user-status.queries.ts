import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { ReadStorePort } from '../ports/read-store.port';
import { APP_CONFIG, READ_STORE } from '../ports/tokens';
import { reactionTypeForClients } from '../server/version-fields';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { UserQueries } from '../users/user.queries';
import { USER_STATUS, type ApiUserStatus, type UserStatusDocument } from './user-status.documents';

/** format_user_status (`reaction_type` spelled for clients: `zulip_extra_emoji` under ZULIP_ALIASES). */
export function formatUserStatus(doc: UserStatusDocument | null, presenceEnabled: boolean, options: { zulipAliases: boolean }): ApiUserStatus {
  const status: ApiUserStatus = {};
  if (!presenceEnabled) status.away = true;
  if (doc?.status_text) status.status_text = doc.status_text;
  if (doc?.emoji_name) {
    status.emoji_name = doc.emoji_name;
    status.emoji_code = doc.emoji_code;
    status.reaction_type = reactionTypeForClients(doc.reaction_type, options);
  }
  return status;
}

/** Reads of user statuses: one user's (`GET /users/{user_id}/status`) and `/register`'s `user_status`. */
@Injectable()
export class UserStatusQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly settings: UserSettingsQueries,
    private readonly users: UserQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async statusOf(userId: number): Promise<ApiUserStatus> {
    const [doc, settings] = await Promise.all([
      this.readStore.get<UserStatusDocument>(USER_STATUS, String(userId)),
      this.settings.settingsOf(userId),
    ]);
    return formatUserStatus(doc, settings.presence_enabled, this.config);
  }

  /**
   * get_all_users_status_dict: by user id (as text), every active user whose status says anything,
   * or who turned presence off.
   */
  async statusesForRegister(realmId: number): Promise<Record<string, ApiUserStatus>> {
    const [docs, away, active] = await Promise.all([
      this.readStore.find<UserStatusDocument>(USER_STATUS, { where: { realm_id: realmId } }),
      this.settings.presenceDisabledUserIds(realmId),
      this.users.list(realmId, { includeDeactivated: false }),
    ]);
    const activeIds = new Set(active.map((u) => u.user_id));
    const byUser = new Map(docs.map((d) => [d.user_id, d]));
    const result: Record<string, ApiUserStatus> = {};
    for (const userId of [...new Set([...byUser.keys(), ...away])].sort((a, b) => a - b)) {
      if (!activeIds.has(userId)) continue;
      const status = formatUserStatus(byUser.get(userId) ?? null, !away.has(userId), this.config);
      if (Object.keys(status).length > 0) result[String(userId)] = status;
    }
    return result;
  }
}
