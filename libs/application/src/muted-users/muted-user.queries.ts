import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { MUTED_USERS, type ApiMutedUser, type MutedUsersDocument } from './muted-user.documents';

/** Reads of the muted-users read model, for `/register` (`muted_users`) and message delivery. */
@Injectable()
export class MutedUserQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** Whom the user has muted, with when, in the order the mutes were made. */
  async mutedUsers(userId: number): Promise<ApiMutedUser[]> {
    return (await this.readStore.get<MutedUsersDocument>(MUTED_USERS, String(userId)))?.muted_users ?? [];
  }

  async mutedUserIds(userId: number): Promise<Set<number>> {
    return new Set((await this.mutedUsers(userId)).map((m) => m.id));
  }
}
