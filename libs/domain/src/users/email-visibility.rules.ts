import type { Role } from '../shared/actor';

/**
 * A user's `email_address_visibility` setting (UserBaseSettings.EMAIL_ADDRESS_VISIBILITY_*):
 * who, beside the user, may read their real address (`delivery_email`).
 */
export const EMAIL_ADDRESS_VISIBILITY = { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 } as const;

/**
 * UserProfile.ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS: the settings under which a viewer
 * of each role may read someone's real address. "Nobody" is in no list: administrators and owners
 * included. The operator (the CLI, holding the data directory) reads every address.
 */
const ACCESSIBLE_VISIBILITIES: Record<Role, readonly number[]> = {
  owner: [1, 2, 3, 5],
  administrator: [1, 2, 3, 5],
  moderator: [1, 2, 5],
  member: [1, 2],
  guest: [1],
};

/** zerver/lib/users.py can_access_delivery_email: the user themselves, or a role the setting allows. */
export function canAccessDeliveryEmail(
  viewer: { userId: number | null; role: Role | 'operator' },
  targetUserId: number,
  visibility: number | undefined,
): boolean {
  if (viewer.role === 'operator') return true;
  if (viewer.userId !== null && viewer.userId === targetUserId) return true;
  return ACCESSIBLE_VISIBILITIES[viewer.role].includes(visibility ?? EMAIL_ADDRESS_VISIBILITY.everyone);
}

/**
 * get_display_email_address: the address `email` shows everyone. The real one only while the user
 * lets everyone see it; otherwise `user<id>@<the organization's fake email domain>` (the domain bot
 * addresses use: botEmailDomain).
 */
export function displayEmailAddress(userId: number, deliveryEmail: string, visibility: number | undefined, fakeEmailDomain: string): string {
  return (visibility ?? EMAIL_ADDRESS_VISIBILITY.everyone) === EMAIL_ADDRESS_VISIBILITY.everyone ? deliveryEmail : `user${userId}@${fakeEmailDomain}`;
}

/** The id in a dummy address `user<id>@…` (get_dummy_email_address_for_display_regex), or null. */
export function dummyEmailUserId(email: string): number | null {
  const match = /^user(\d+)@[^@]+$/i.exec(email.trim());
  return match ? Number(match[1]) : null;
}
