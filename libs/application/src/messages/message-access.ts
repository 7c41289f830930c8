import type { ChannelDocument } from '../channels/channel.documents';

/**
 * zerver/lib/streams.py can_access_stream_history: whether a user may read a channel's messages
 * from before they subscribed: web-public channels, public channels with public history for
 * everyone but guests, and channels with shared history for their subscribers.
 */
export const canAccessChannelHistory = (role: string, channel: ChannelDocument, subscribed: boolean): boolean =>
  channel.is_web_public ||
  (!channel.invite_only && channel.history_public_to_subscribers && role !== 'guest') ||
  (channel.history_public_to_subscribers && subscribed && !channel.is_archived);
