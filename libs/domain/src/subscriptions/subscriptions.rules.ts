import type { Viewer } from '../channels/channels.access';
import { SubscriberDataNotAvailableError, UnableToRetrieveSubscribersError, GuestUsersNotAllowedError } from './subscriptions.errors';
import { subscriberVisibility, type ChannelAccessFacts } from '../channels/channels.access';

/** zerver/lib/stream_color.py STREAM_ASSIGNMENT_COLORS, in order. */
export const STREAM_ASSIGNMENT_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
] as const;

/** Subscription.DEFAULT_STREAM_COLOR. */
export const DEFAULT_STREAM_COLOR = '#c2c2c2';

/** A color as `check_color` accepts it: `#` and six hexadecimal digits. */
export const isValidColor = (value: string): boolean => /^#[0-9a-fA-F]{6}$/.test(value);

/**
 * zerver/lib/stream_color.py pick_colors, for one user: channels with a requested color get it;
 * the others, in id order, take the palette's colors the user does not use yet, and once those
 * run out, the palette color at `id mod 24`. (Zulip orders by recipient id, which follows channel
 * id order.)
 */
export function pickColors(usedColors: Iterable<string>, requested: Record<number, string>, channelIds: number[]): Record<number, string> {
  const used = new Set(usedColors);
  const result: Record<number, string> = {};
  const others: number[] = [];
  for (const channelId of [...channelIds].sort((a, b) => a - b)) {
    const color = requested[channelId];
    if (color !== undefined) {
      result[channelId] = color;
      used.add(color);
    } else {
      others.push(channelId);
    }
  }
  const available = STREAM_ASSIGNMENT_COLORS.filter((color) => !used.has(color));
  others.forEach((channelId, i) => {
    result[channelId] = i < available.length ? available[i] : STREAM_ASSIGNMENT_COLORS[channelId % STREAM_ASSIGNMENT_COLORS.length];
  });
  return result;
}

/** require_non_guest_user on add_subscriptions_backend: guests never subscribe through the API. */
export function checkMayAddSubscriptions(viewer: Viewer): void {
  if (viewer.role === 'guest') throw new GuestUsersNotAllowedError();
}

/** Raises Zulip's error when the viewer may not list the channel's subscribers. */
export function checkCanSeeSubscribers(viewer: Viewer, channel: ChannelAccessFacts, isSubscribed: boolean): void {
  const visibility = subscriberVisibility(viewer, channel, isSubscribed);
  if (visibility === 'not_available') throw new SubscriberDataNotAvailableError();
  if (visibility === 'private') throw new UnableToRetrieveSubscribersError();
}

/**
 * Whether a subscription request concerns anyone but the actor, after add_subscriptions_backend
 * (`principals` other than oneself) and remove_subscriptions_backend (user_directly_controls_user:
 * oneself and one's own bots do not count as others).
 */
export const concernsOthers = (actorId: number | null, targets: { userId: number; botOwnerId?: number | null }[], options: { ownBotsCount: boolean }): boolean =>
  targets.some((t) => t.userId !== actorId && (options.ownBotsCount || actorId === null || t.botOwnerId !== actorId));
