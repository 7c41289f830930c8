import { Injectable } from '@nestjs/common';
import { SYSTEM_GROUP_NAMES, type SystemGroupName } from '@app/domain';

/**
 * The integer ids the API shows for an organization's system groups (role:everyone, …), which
 * channel objects use in their permission settings (`can_send_message_group: 16`).
 *
 * The user-groups area owns these ids (`GET /user_groups`). Until it binds its own read model
 * here (`{ provide: SystemGroupIds, useClass: … }` in its descriptor, in place of the channels area's), ids follow one fixed
 * convention: the eight system groups of organization r are (r-1)*8+1 … r*8, in the order Zulip
 * creates them (owners, administrators, moderators, full members, members, everyone, internet,
 * nobody). A user-groups implementation can keep that convention and number its own groups above.
 */
export abstract class SystemGroupIds {
  abstract forRealm(realmId: number): Promise<Record<SystemGroupName, number>>;
}

export const conventionalSystemGroupId = (realmId: number, name: SystemGroupName): number =>
  (realmId - 1) * SYSTEM_GROUP_NAMES.length + SYSTEM_GROUP_NAMES.indexOf(name) + 1;

@Injectable()
export class ConventionalSystemGroupIds extends SystemGroupIds {
  async forRealm(realmId: number): Promise<Record<SystemGroupName, number>> {
    return Object.fromEntries(SYSTEM_GROUP_NAMES.map((name) => [name, conventionalSystemGroupId(realmId, name)])) as Record<SystemGroupName, number>;
  }
}
