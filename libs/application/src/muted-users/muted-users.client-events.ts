import { Injectable } from '@nestjs/common';
import type { UserMuted, UserUnmuted } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';
import { MutedUserQueries } from './muted-user.queries';

/** do_mute_user, do_unmute_user: the user's whole (current) `muted_users` list. */
@Injectable()
export class MutedUsersClientEvents implements AreaClientEvents {
  constructor(private readonly mutedUsers: MutedUserQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      UserMuted: (e: Recorded<UserMuted>) => this.mutedUsersOf(e.data.userId),
      UserUnmuted: (e: Recorded<UserUnmuted>) => this.mutedUsersOf(e.data.userId),
    };
  }

  private async mutedUsersOf(userId: number): Promise<ClientEventDelivery[]> {
    return toUser(userId, { type: 'muted_users', muted_users: await this.mutedUsers.mutedUsers(userId) });
  }
}
