import { isSystemGroupMember, SYSTEM_GROUP_NAMES, systemGroupRoles } from '@app/domain';

describe('systemGroupRoles (create_system_user_groups_for_realm, counting subgroups)', () => {
  it.each([
    ['role:owners', ['owner']],
    ['role:administrators', ['administrator', 'owner']],
    ['role:moderators', ['moderator', 'administrator', 'owner']],
    ['role:fullmembers', ['member', 'moderator', 'administrator', 'owner']],
    ['role:members', ['member', 'moderator', 'administrator', 'owner']],
    ['role:everyone', ['guest', 'member', 'moderator', 'administrator', 'owner']],
    ['role:internet', ['guest', 'member', 'moderator', 'administrator', 'owner']],
    ['role:nobody', []],
  ] as const)('%s holds %j', (group, roles) => {
    expect(systemGroupRoles(group)).toEqual(roles);
  });

  it('answers isSystemGroupMember from the same table', () => {
    for (const group of SYSTEM_GROUP_NAMES) {
      for (const role of ['owner', 'administrator', 'moderator', 'member', 'guest'] as const) {
        expect(isSystemGroupMember(group, role)).toBe(systemGroupRoles(group).includes(role));
      }
    }
    expect(isSystemGroupMember('role:members', 'guest')).toBe(false);
    expect(isSystemGroupMember('role:everyone', 'guest')).toBe(true);
  });
});
