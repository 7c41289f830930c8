import type { Actor } from '../shared/actor';
import type { ChannelPrivacy } from './channels.events';
import { CannotAdministerChannelError, InvalidChannelIdError } from './channels.errors';
import { canSubscribeOthersToAccessibleChannels, isRealmAdministrator } from './channels.rules';

/**
 * Who may see and administer a channel, after zerver/lib/streams.py. Zulip decides with group
 * settings; a channel here keeps Zulip's default groups, which reduce to roles and the creator:
 * can_administer_channel_group is the creator (guests excluded), can_add_subscribers_group and
 * can_subscribe_group are nobody, can_remove_subscribers_group is the administrators.
 */
export type ChannelAccessFacts = ChannelPrivacy & { creatorId: number | null; isArchived: boolean };
export type Viewer = Pick<Actor, 'userId' | 'role'>;

const isOperator = (viewer: Viewer) => viewer.role === 'operator';

/** Membership of the channel's can_administer_channel_group (the creator's anonymous group). */
const inAdministerGroup = (viewer: Viewer, channel: ChannelAccessFacts) =>
  viewer.userId !== null && viewer.role !== 'guest' && viewer.userId === channel.creatorId;

/** Organization administrators administer every channel; so does whoever is in can_administer_channel_group. */
export const administersChannel = (viewer: Viewer, channel: ChannelAccessFacts): boolean =>
  isRealmAdministrator(viewer.role) || inAdministerGroup(viewer, channel);

/**
 * user_has_content_access: may read the channel's messages and subscribe to it. Web-public and
 * subscribed channels always; otherwise public channels for everyone but guests.
 */
export function hasContentAccess(viewer: Viewer, channel: ChannelAccessFacts, isSubscribed: boolean): boolean {
  if (isOperator(viewer)) return true;
  if (channel.isWebPublic || isSubscribed) return true;
  if (viewer.role === 'guest') return false;
  return !channel.inviteOnly;
}

/**
 * user_has_metadata_access (and check_basic_stream_access without content access): may see the
 * channel's name, description and subscribers. Adds administrators and the channel's own
 * administrators to those with content access.
 */
export function hasMetadataAccess(viewer: Viewer, channel: ChannelAccessFacts, isSubscribed: boolean): boolean {
  if (hasContentAccess(viewer, channel, isSubscribed)) return true;
  if (viewer.role === 'guest') return false;
  return isRealmAdministrator(viewer.role) || inAdministerGroup(viewer, channel);
}

/**
 * check_stream_access_for_delete_or_update_requiring_metadata_access: administrators of the
 * channel pass; others learn that they may not administer it only when they can see it.
 */
export function checkCanAdministerChannel(viewer: Viewer, channel: ChannelAccessFacts, isSubscribed: boolean): void {
  if (administersChannel(viewer, channel)) return;
  if (hasContentAccess(viewer, channel, isSubscribed)) throw new CannotAdministerChannelError();
  throw new InvalidChannelIdError();
}

/**
 * get_streams_to_which_user_cannot_add_subscribers, for a channel the actor can access: the
 * organization's can_add_subscribers_group (members) covers every accessible channel; otherwise
 * the channel's administrators, or its can_add_subscribers_group (nobody by default).
 */
export function canAddSubscribersTo(viewer: Viewer, channel: ChannelAccessFacts): boolean {
  if (isOperator(viewer) || canSubscribeOthersToAccessibleChannels(viewer.role)) return true;
  if (isRealmAdministrator(viewer.role)) return true;
  if (viewer.role === 'guest') return false;
  return inAdministerGroup(viewer, channel);
}

/**
 * bulk_can_remove_subscribers_from_streams: administrators may remove anyone from any channel; the
 * channels' own administrators from theirs; others need access to each channel and membership of
 * its can_remove_subscribers_group (administrators by default).
 */
export function canRemoveSubscribersFrom(viewer: Viewer, channels: { channel: ChannelAccessFacts; isSubscribed: boolean }[]): boolean {
  if (isOperator(viewer) || isRealmAdministrator(viewer.role)) return true;
  if (viewer.role === 'guest') return false;
  if (channels.every(({ channel }) => inAdministerGroup(viewer, channel))) return true;
  if (!channels.every(({ channel, isSubscribed }) => hasMetadataAccess(viewer, channel, isSubscribed))) return false;
  // can_remove_subscribers_group defaults to role:administrators, which the viewer is not.
  return false;
}

export type SubscriberVisibility = 'visible' | 'not_available' | 'private';

/**
 * zerver/lib/subscription_info.py validate_user_access_to_subscribers_helper: whether the viewer may
 * list a channel's subscribers ("Subscriber data is not available for this channel" for guests on
 * public channels, "Unable to retrieve subscribers for private channel" for outsiders).
 */
export function subscriberVisibility(viewer: Viewer, channel: ChannelAccessFacts, isSubscribed: boolean): SubscriberVisibility {
  if (isOperator(viewer) || channel.isWebPublic) return 'visible';
  if (viewer.role === 'guest' && isSubscribed) return 'visible';
  if (viewer.role === 'guest' && !channel.inviteOnly) return 'not_available';
  if (isRealmAdministrator(viewer.role) || inAdministerGroup(viewer, channel)) return 'visible';
  if (channel.inviteOnly && !isSubscribed) return 'private';
  return 'visible';
}
