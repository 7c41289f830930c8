import { type GraphUser, UserGroupGraph } from '@app/domain';

const SYSTEM = {
  'role:owners': 1, 'role:administrators': 2, 'role:moderators': 3, 'role:fullmembers': 4,
  'role:members': 5, 'role:everyone': 6, 'role:internet': 7, 'role:nobody': 8,
} as const;
const users: GraphUser[] = [
  { userId: 1, role: 'owner', isActive: true },
  { userId: 2, role: 'administrator', isActive: true },
  { userId: 3, role: 'moderator', isActive: true },
  { userId: 10, role: 'member', isActive: true },
  { userId: 11, role: 'member', isActive: false },
  { userId: 12, role: 'guest', isActive: true },
];
// leadership (11, 10) ⊂ support (12) ⊃ administrators
const graph = new UserGroupGraph(
  [
    { id: 100, members: [12], subgroupIds: [101, 2], deactivated: false },
    { id: 101, members: [11, 10], subgroupIds: [], deactivated: false },
  ],
  SYSTEM,
);

describe('UserGroupGraph', () => {
  it('derives system group members from roles, through the nesting, leaving deactivated users out', () => {
    expect(graph.directMembers(5, users)).toEqual([10]);
    expect(graph.recursiveMembers(5, users)).toEqual([1, 2, 3, 10]);
    expect(graph.recursiveMembers(6, users)).toEqual([1, 2, 3, 10, 12]);
    expect(graph.recursiveMembers(8, users)).toEqual([]);
    expect(graph.recursiveSubgroups(3)).toEqual([1, 2]);
  });

  it('follows named groups through named and system subgroups', () => {
    expect(graph.directMembers(100, users)).toEqual([12]);
    expect(graph.recursiveMembers(100, users)).toEqual([1, 2, 10, 12]);
    expect(graph.recursiveSubgroups(100)).toEqual([1, 2, 101]);
    expect(graph.contains({ userId: 1, role: 'owner' }, 100)).toBe(true);
    expect(graph.contains({ userId: 1, role: 'owner' }, 100, true)).toBe(false);
    expect(graph.contains({ userId: 3, role: 'moderator' }, 100)).toBe(false);
  });

  it('answers settings given as a group id or an anonymous group', () => {
    expect(graph.settingContains({ userId: 10, role: 'member' }, 101)).toBe(true);
    expect(graph.settingContains({ userId: 3, role: 'moderator' }, { direct_members: [3], direct_subgroups: [] })).toBe(true);
    expect(graph.settingContains({ userId: 2, role: 'administrator' }, { direct_members: [], direct_subgroups: [3] })).toBe(true);
    expect(graph.settingContains({ userId: 12, role: 'guest' }, { direct_members: [10], direct_subgroups: [5] })).toBe(false);
  });

  it('knows which ids are groups of the organization', () => {
    expect([graph.has(8), graph.has(101), graph.has(9), graph.systemName(4)]).toEqual([true, true, false, 'role:fullmembers']);
  });
});
