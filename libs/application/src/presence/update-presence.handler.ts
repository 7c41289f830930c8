import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS, decidePresencePing, type PresenceTimes } from '@app/domain';
import type { BusMessage } from '../events/client-event-bus';
import type { ClockPort } from '../ports/clock.port';
import { PRESENCE_STORE, type PresenceStorePort } from '../ports/presence-store.port';
import type { ReadStorePort } from '../ports/read-store.port';
import { CLOCK, READ_STORE } from '../ports/tokens';
import { ownUserId } from '../shared/own-user-id';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { UserQueries } from '../users/user.queries';
import { USERS } from '../users/user.documents';
import { presenceClientEvent } from './presence.client-events';
import { UpdatePresenceCommand } from './update-presence.command';

/**
 * do_update_user_presence. Presence is the one area whose writes do not go to the event log: a
 * ping a minute per client would be most of the log and none of it worth replaying
 * (docs/presence.md). The pure rule (decidePresencePing) decides what a ping changes; the store
 * keeps the latest times; a user who comes online is announced at once (the controller publishes
 * the announcement on the client-event bus, to every API instance, as typing notifications are).
 * A user hiding their presence (`presence_enabled` off) is not recorded at all (update_user_presence).
 */
@CommandHandler(UpdatePresenceCommand)
export class UpdatePresenceHandler implements ICommandHandler<UpdatePresenceCommand> {
  constructor(
    @Inject(PRESENCE_STORE) private readonly store: PresenceStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly settings: UserSettingsQueries,
    private readonly users: UserQueries,
  ) {}

  async execute({ context: { actor }, status }: UpdatePresenceCommand): Promise<{ announcement: BusMessage | null }> {
    const userId = ownUserId(actor);
    const [previous, settings] = await Promise.all([this.store.get(userId), this.settings.settingsOf(userId)]);
    if (!settings.presence_enabled) return { announcement: null };
    const now = this.clock.now().getTime() / 1000;
    const { write, notify } = decidePresencePing(previous, status, now);
    if (write) await this.store.save(actor.realmId, userId, write);
    const times = write ?? previous;
    return { announcement: notify && times ? await this.announcement(actor.realmId, userId, times, now) : null };
  }

  /** send_presence_changed: to every active user, in organizations of up to 100 active users. */
  private async announcement(realmId: number, userId: number, times: PresenceTimes, now: number): Promise<BusMessage | null> {
    const activeCount = await this.readStore.count(USERS, { realm_id: realmId, is_active: true });
    if (activeCount > USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS) return null;
    const active = await this.users.list(realmId, { includeDeactivated: false });
    const user = active.find((u) => u.user_id === userId);
    if (!user) return null;
    return { userIds: active.map((u) => u.user_id), event: presenceClientEvent(user, times, now) };
  }
}
