export const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest'] as const;
export type Role = (typeof ROLES)[number];

/** Zulip's integer role values (UserProfile.ROLE_*), which the API exposes as `role`. */
export const ROLE_VALUES: Record<Role, number> = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
};

export const roleFromValue = (value: number): Role | undefined =>
  (Object.keys(ROLE_VALUES) as Role[]).find((role) => ROLE_VALUES[role] === value);

/** Who performs a command: the authenticated user, or the operator at the command line. */
export type Actor = Readonly<{
  realmId: number;
  userId: number | null; // null for the operator (CLI) and the system
  role: Role | 'operator';
  isBot: boolean;
}>;

export const isAdministrator = (actor: Actor): boolean =>
  actor.role === 'owner' || actor.role === 'administrator' || actor.role === 'operator';

export const operatorActor = (realmId: number): Actor => ({ realmId, userId: null, role: 'operator', isBot: false });
