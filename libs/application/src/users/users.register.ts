import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import { CustomProfileFieldQueries } from '../custom-profile-fields/custom-profile-field.queries';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { formatUser, type ProfileDataValue } from './user-format';
import { UserQueries } from './user.queries';

/** `realm_user`: the organization's users, active (`realm_users`) and deactivated (`realm_non_active_users`). */
@Injectable()
export class UsersRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly users: UserQueries,
    private readonly profileFields: CustomProfileFieldQueries,
  ) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'realm_user', read: (actor) => this.realmUsers(actor) }];
  }

  private async realmUsers(actor: Actor): Promise<Record<string, unknown>> {
    const [users, profileData] = await Promise.all([this.users.list(actor.realmId), this.profileFields.profileData(actor.realmId)]);
    // get_custom_profile_field_values; the read model spells an absent rendering as null.
    const format = (u: (typeof users)[number]) => formatUser(u, actor, { profileData: (profileData.get(u.user_id) ?? {}) as Record<string, ProfileDataValue> });
    return {
      realm_users: users.filter((u) => u.is_active).map(format),
      realm_non_active_users: users.filter((u) => !u.is_active).map(format),
    };
  }
}
