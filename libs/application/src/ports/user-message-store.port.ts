import type { GlobalPosition } from './event-store.port';

/**
 * Per-user message state (Zulip's UserMessage: one flags bitmask per user and message) and the
 * compact message index the flags are queried through. This is the hot path of a chat server:
 * a message to a channel of 10,000 subscribers creates 10,000 rows, "mark as read" touches tens of
 * thousands, and every message list needs the reader's flags. So the port speaks in bulk: one
 * call inserts a message's rows for every recipient, one call changes a flag over a whole
 * selection, and narrows are answered by the store rather than row by row.
 *
 * The store is a projection target: the user-messages projection turns events into changes and
 * `apply` writes them together with the projection's checkpoint, atomically, skipping changes at
 * or below the stored checkpoint. The checkpoint lives with the read store's checkpoints, so
 * `ReadStorePort.getCheckpoints` reports it too.
 */

/** What the index keeps of a message: enough to filter, order and count, never to display. */
export type IndexedMessage = {
  id: number;
  realmId: number;
  senderId: number;
  /** Channel messages: the channel and topic (as sent; compared case-insensitively). */
  streamId: number | null;
  topic: string | null;
  /** Direct messages: the conversation's participants, "2,10,11" (directConversationKey). */
  dmKey: string | null;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Text the search operator looks in besides the topic (the raw content). */
  searchText: string;
};

/** One move of a message (an entry of Zulip's edit_history), and the target message whose stream recorded it. */
export type MessageMoveEntry = {
  user_id: number;
  timestamp: number;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
  target_message_id: number;
};

/** Where a message is now, and how it got there. */
export type MessageLocation = { streamId: number | null; topic: string | null; lastMovedAt: number | null; moves: MessageMoveEntry[] };

/** One recipient's row: the user and the MESSAGE_FLAG_BITS it starts with. */
export type UserMessageRow = { userId: number; flags: number };

/** Which of a user's rows a flag change touches; every given condition must hold (ids inclusive). */
export type FlagSelector = {
  messageIds?: number[];
  minId?: number;
  maxId?: number;
  streamId?: number;
  topic?: string;
  dmKey?: string;
  /**
   * Ids of messages the user has no row for and may read (public history): their rows are
   * created first, if absent, with Zulip's DEFAULT_HISTORICAL_FLAGS (`read | historical`), then
   * the change applies to them like to the others (create_historical_user_messages).
   */
  createHistorical?: number[];
};

export type UserMessageChange =
  | { type: 'message-added'; message: IndexedMessage; rows: UserMessageRow[] }
  | { type: 'flags-changed'; userId: number; selector: FlagSelector; op: 'add' | 'remove'; mask: number }
  /**
   * A topic move: the messages now live in another channel and/or topic (one bulk update). A move
   * between channels may also delete the rows of `removeRowsOf` users and add rows (`addRows.flags`,
   * only where the user has none) for `addRows.userIds`, for every moved message.
   */
  | {
      type: 'messages-moved';
      messageIds: number[];
      streamId: number;
      topic: string;
      removeRowsOf?: number[];
      addRows?: { userIds: number[]; flags: number };
      /**
       * Who moved them, when (seconds) and through which target message: with these, every moved
       * message's move history gets an entry (prev_topic/topic, prev_stream/stream where they
       * change) and its last-moved time, in the same statement.
       */
      history?: { userId: number; timestamp: number; targetMessageId: number };
    }
  /**
   * A content edit: the index's search text and attributes change, and the mention flags of the
   * message's existing rows are recomputed (mentioned / topic_wildcard_mentioned for the users
   * named, stream_wildcard_mentioned for every row when set); no row is added or removed.
   */
  | {
      type: 'message-edited';
      messageId: number;
      searchText: string;
      hasLink: boolean;
      hasImage: boolean;
      hasAttachment: boolean;
      mentionedUserIds: number[];
      streamWildcardMentioned: boolean;
      topicWildcardMentionedUserIds: number[];
      /** Users whose rows may carry mention flags from before (cleared first); without it every row of the message is looked at. */
      previouslyMentionedUserIds?: number[];
      /** Whether every row may carry stream_wildcard_mentioned from before. */
      previousStreamWildcard?: boolean;
      /** `has_alert_word`: cleared on the rows of `previousUserIds`, then set on the rows of `userIds` (absent: unchanged). */
      alertWords?: { userIds: number[]; previousUserIds: number[] };
    }
  /**
   * A reaction added (+1) or removed (-1): the index counts each message's reactions, so that
   * has:reaction (`reacted`) is a condition of the index like has:link. Never below zero.
   */
  | { type: 'reactions-counted'; messageId: number; delta: 1 | -1 }
  /** Messages deleted: their index entries and every user's rows go. */
  | { type: 'messages-deleted'; messageIds: number[] };

/** The changes one event produced, at its position in the global log. */
export type PositionedChanges = { position: GlobalPosition; changes: UserMessageChange[] };

/**
 * One condition of a narrow, already resolved to ids (GET /messages `narrow`). Flag conditions
 * need the user's rows (scope "user").
 */
export type NarrowCondition =
  | { kind: 'stream'; streamId: number }
  | { kind: 'streams'; streamIds: number[] }
  | { kind: 'topic'; topic: string }
  | { kind: 'sender'; userId: number }
  | { kind: 'dm'; dmKey: string }
  | { kind: 'dm-including'; userId: number }
  | { kind: 'is-dm' }
  /** Rows whose flags have every bit of `mask` set (`set`) or none of them set (`!set`); `any`: at least one set. */
  | { kind: 'flags'; mask: number; set: 'all' | 'none' | 'any' }
  | { kind: 'resolved' }
  | { kind: 'id'; id: number }
  /** One of these message ids. */
  | { kind: 'ids'; ids: number[] }
  /** Messages with at least one reaction (has:reaction: the index's reaction count). */
  | { kind: 'reacted' }
  | { kind: 'has'; what: 'link' | 'image' | 'attachment' }
  /**
   * Zulip's search (domain search.rules.ts): every word (folded, unstemmed; the store stems them
   * as its index does) occurs in the topic or the content, stemmed; each phrase's words occur in
   * that order in one of them. Never negated (Zulip ignores a negated search).
   */
  | { kind: 'search'; words: string[]; phrases: string[][] }
  | { kind: 'nothing' }
  /** Channel messages of these topics (channel id and topic, compared case-insensitively): is:followed. */
  | { kind: 'topics'; topics: ChannelTopicRef[] }
  /**
   * Channel messages the user's muting hides (zerver/lib/user_topics.py
   * exclude_stream_and_topic_mutes): a muted topic, or a muted channel unless the topic is
   * unmuted or followed. `in:home` is its negation, `is:muted` the condition itself.
   */
  | { kind: 'muted'; mutedTopics: ChannelTopicRef[]; mutedStreamIds: number[]; visibleTopics: ChannelTopicRef[] };

/** A channel's topic (compared case-insensitively). */
export type ChannelTopicRef = { streamId: number; topic: string };

export type NarrowTerm = NarrowCondition & { negated: boolean };

export type MessageQuery = {
  realmId: number;
  userId: number;
  /**
   * "user": only messages the user has a row for (Zulip's need_user_message); "history": every
   * message of the organization, for narrows already limited to channels whose history the
   * user may read (Zulip's include_history).
   */
  scope: 'user' | 'history';
  terms: NarrowTerm[];
};

/** Up to `limit` ids at or below `fromId` (older, newest first) or at or above it (newer, oldest first). */
export type MessageRange = { direction: 'older' | 'newer'; fromId: number; limit: number };

/** A matching message and the user's flags for it (null: the user has no row, in history scope). */
export type MessageMatch = { id: number; flags: number | null };

export type UnreadMessage = { id: number; senderId: number; streamId: number | null; topic: string | null; dmKey: string | null; flags: number };

export type UnreadCounts = {
  topics: { streamId: number; topic: string; count: number }[];
  conversations: { dmKey: string; count: number }[];
  mentioned: number;
  total: number;
};

export interface UserMessageStorePort {
  /** Creates tables and indexes if missing (idempotent; called at boot). */
  prepare(): Promise<void>;

  /**
   * Applies the changes after the checkpoint's current position, then moves it to
   * `checkpoint.position`, in one transaction. Redelivered changes (at or below the stored
   * checkpoint) are skipped, and a message's rows are inserted only if absent.
   */
  apply(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): Promise<void>;
  getCheckpoint(name: string): Promise<GlobalPosition | undefined>;
  /** Forgets every row and the named checkpoint (rebuilds, tests). */
  reset(checkpointName: string): Promise<void>;

  /** The matches of a narrow in a range (see MessageRange). */
  findMessages(query: MessageQuery, range: MessageRange): Promise<MessageMatch[]>;
  /** The user's flags for these messages (absent: no row). */
  flagsFor(userId: number, messageIds: number[]): Promise<Map<number, number>>;
  /**
   * The flags of these users for these messages (one or a few: an edit's fan-out), by user, then
   * message: what flagsFor answers for each user, in one read (users and messages without a row
   * are absent).
   */
  flagsForUsers(userIds: number[], messageIds: number[]): Promise<Map<number, Map<number, number>>>;
  /**
   * Which of `userIds` have a row for the message with every bit of `mask` set (read receipts):
   * ascending. One key lookup per candidate, in one statement per level.
   */
  usersWithFlags(messageId: number, userIds: number[], mask: number): Promise<number[]>;
  /** How many of the user's rows a selection has with the flag bits unset (`op` add) or set (`op` remove): what a change would update. */
  countFlagChanges(userId: number, selector: FlagSelector, op: 'add' | 'remove', mask: number): Promise<number>;

  /** The user's newest unread messages, at most `limit`, oldest first (Zulip's MAX_UNREAD_MESSAGES). */
  unreadMessages(userId: number, limit: number): Promise<UnreadMessage[]>;
  unreadCounts(userId: number): Promise<UnreadCounts>;

  /** Senders of a topic so far (participants_for_topic without reactions). */
  topicParticipants(realmId: number, streamId: number, topic: string): Promise<number[]>;
  /** Whether the topic has a message, or (with `userId`) one the user has a row for. */
  topicHasMessages(realmId: number, streamId: number, topic: string, userId?: number): Promise<boolean>;
  /**
   * A channel's topics, newest first, each with its newest message id (or, with `userId`, only
   * the messages the user has a row for), one per topic compared case-insensitively, spelled as
   * in its newest message (zerver/lib/topic.py get_topic_history_for_stream).
   */
  topicsOf(realmId: number, streamId: number, userId?: number): Promise<{ topic: string; maxId: number }[]>;
  /** The newest message id of the organization, or of the user's rows. */
  maxMessageId(realmId: number, userId?: number): Promise<number | null>;
  /**
   * The retention job's read (docs/messages.md, "Retention"): ids at or below `maxId`, newest first,
   * at most `limit`, of one channel's messages (where they are now) or of the organization's direct
   * messages. Each is one walk of an index, (stream_id, id) or the direct messages' (realm_id, id),
   * never a step over other messages.
   */
  retentionCandidates(realmId: number, of: { streamId: number } | 'direct', maxId: number, limit: number): Promise<number[]>;
  /**
   * Where messages are now (their channel and topic, which moves change in bulk here rather than
   * in each message's document) and their move history, oldest first; absent: not indexed.
   */
  locationsOf(messageIds: number[]): Promise<Map<number, MessageLocation>>;

  health(): Promise<{ ok: boolean; detail?: string }>;
  /** Stops background work (the connection belongs to whoever opened it). */
  close(): Promise<void>;
}


/** For adapters of topicsOf: keeps the first (newest) spelling of each topic, compared case-insensitively. */
export function firstPerTopic(rows: { topic: string; maxId: number }[]): { topic: string; maxId: number }[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = r.topic.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
