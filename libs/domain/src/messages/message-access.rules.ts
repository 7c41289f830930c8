/**
 * Who may read a message, and who hears about an action on one: the one rule every reader of
 * messages applies (zerver/lib/message.py has_message_access, bulk_access_messages,
 * event_recipient_ids_for_action_on_messages; zerver/lib/streams.py can_access_stream_history).
 * Pure: the application's MessageAccess looks up the facts.
 */

/** The channel facts access depends on. */
export type MessageChannelFacts = {
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic?: boolean;
  isArchived?: boolean;
};

/** A reader: their role ('guest' may not read public channels they are not subscribed to). */
export type MessageReader = { role: string };

/**
 * What access to one message depends on: whether the reader has a UserMessage row for it, and for
 * a channel message the channel (null: it is gone) and whether the reader is subscribed to it
 * (an active subscription).
 */
export type MessageAccessFacts =
  | { type: 'private'; hasRow: boolean }
  | { type: 'stream'; hasRow: boolean; channel: MessageChannelFacts | null; subscribed: boolean };

/** A channel a non-guest reads without a subscription (Stream.is_public and can_access_public_streams). */
const readableUnsubscribed = (reader: MessageReader, channel: MessageChannelFacts) => !channel.inviteOnly && reader.role !== 'guest';

/**
 * has_message_access: a direct message to those with a row for it; a channel message to
 * non-guests when the channel is public, else to its subscribers when the channel shares its
 * history with them, else to subscribers who also received it (have a row). A row alone does
 * not open a channel message: an unsubscribed reader of a private channel loses access.
 */
export function hasMessageAccess(reader: MessageReader, message: MessageAccessFacts): boolean {
  if (message.type === 'private') return message.hasRow;
  const { channel } = message;
  if (channel === null) return false;
  if (readableUnsubscribed(reader, channel)) return true;
  if (!message.subscribed) return false;
  return channel.historyPublicToSubscribers || message.hasRow;
}

/**
 * can_access_stream_history: whether the reader may read a channel's messages they did not
 * receive (a narrow's or a topic's whole history): web-public channels, public channels with
 * shared history for everyone but guests, and channels with shared history for their subscribers
 * while not archived.
 */
export function canAccessChannelHistory(reader: MessageReader, channel: MessageChannelFacts, subscribed: boolean): boolean {
  return (
    channel.isWebPublic === true ||
    (!channel.inviteOnly && channel.historyPublicToSubscribers && reader.role !== 'guest') ||
    (channel.historyPublicToSubscribers && subscribed && channel.isArchived !== true)
  );
}

/**
 * validate_attachment_request: a file's owner always; anyone else through one message linking it
 * that they received (any row, even in a channel they left: Zulip checks for UserMessage rows
 * first) or may read (hasMessageAccess).
 */
export function mayReadLinkedFile(reader: MessageReader & { userId: number }, ownerId: number, linkingMessages: readonly MessageAccessFacts[]): boolean {
  if (reader.userId === ownerId) return true;
  return linkingMessages.some((m) => m.hasRow || hasMessageAccess(reader, m));
}

/**
 * The facts of who hears about an action on a message (a reaction, an edit): the row holders
 * among the candidates, the channel's active subscribers, and which users may read a public
 * channel unsubscribed (active non-guests).
 */
export type ActionAudienceFacts =
  | { type: 'private'; rowHolderIds: readonly number[] }
  | {
      type: 'stream';
      /** null: the channel is gone, nobody hears. */
      channel: MessageChannelFacts | null;
      subscriberIds: readonly number[];
      rowHolderIds: readonly number[];
      /** An active non-guest (may read a public channel they are not subscribed to). */
      readsPublicChannels: (userId: number) => boolean;
    };

/**
 * event_recipient_ids_for_action_on_messages: a direct message's row holders; for a channel with
 * protected history, its subscribers holding a row; for a private channel with shared history,
 * its subscribers; for a public channel, its subscribers and the active non-guests holding a row
 * (historical rows included: whoever reacted to or starred a message they were not sent).
 * Subscribers first, in the order given.
 */
export function actionAudience(facts: ActionAudienceFacts): number[] {
  if (facts.type === 'private') return [...facts.rowHolderIds];
  const { channel, subscriberIds, rowHolderIds } = facts;
  if (channel === null) return [];
  const holders = new Set(rowHolderIds);
  if (!channel.historyPublicToSubscribers) return subscriberIds.filter((id) => holders.has(id));
  if (channel.inviteOnly) return [...subscriberIds];
  const subscribed = new Set(subscriberIds);
  return [...subscriberIds, ...rowHolderIds.filter((id) => !subscribed.has(id) && facts.readsPublicChannels(id))];
}
