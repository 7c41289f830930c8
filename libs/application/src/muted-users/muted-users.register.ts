import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { MutedUserQueries } from './muted-user.queries';

/** `muted_users`: the users the user has muted. */
@Injectable()
export class MutedUsersRegisterSections implements AreaRegisterSections {
  constructor(private readonly mutedUsers: MutedUserQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'muted_users', read: async (actor) => ({ muted_users: await this.mutedUsers.mutedUsers(actor.userId!) }) }];
  }
}
