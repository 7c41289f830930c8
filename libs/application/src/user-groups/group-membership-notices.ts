import type { GlobalPosition } from '../ports/event-store.port';

/**
 * The direct messages that tell users someone else added them to or removed them from a group
 * (notify_for_user_group_subscription_changes). A seam: the messages area, above this one, binds
 * its Notification Bot to it (messages.area.ts).
 */
export abstract class GroupMembershipNotices {
  /** Posts one direct message per notice; the position of the last one (for read-your-writes). */
  abstract postDirect(realmId: number, notices: { userId: number; content: string }[], now: string): Promise<GlobalPosition | undefined>;
}
