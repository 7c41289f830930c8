import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { UserGroupQueries } from './user-group.queries';

/**
 * `realm_user_groups` (also fetched for `user_group`): the system groups and the named groups,
 * deactivated ones only for clients with the `include_deactivated_groups` capability.
 */
@Injectable()
export class UserGroupsRegisterSections implements AreaRegisterSections {
  constructor(private readonly groups: UserGroupQueries) {}

  registerSections(): RegisterSection[] {
    return [
      {
        fetchType: 'realm_user_groups',
        aliases: ['user_group'],
        read: async (actor, options) => ({
          realm_user_groups: await this.groups.list(actor.realmId, { includeDeactivated: options.clientCapabilities?.include_deactivated_groups === true }),
        }),
      },
    ];
  }
}
