import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { UserStatusQueries } from './user-status.queries';

/** `user_status`: the statuses of the organization's users. */
@Injectable()
export class UserStatusRegisterSections implements AreaRegisterSections {
  constructor(private readonly statuses: UserStatusQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'user_status', read: async (actor) => ({ user_status: await this.statuses.statusesForRegister(actor.realmId) }) }];
  }
}
