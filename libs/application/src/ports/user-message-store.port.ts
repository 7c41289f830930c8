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
  /** Text the search operator looks in (the raw content). */
  searchText: string;
};

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
};

export type UserMessageChange =
  | { type: 'message-added'; message: IndexedMessage; rows: UserMessageRow[] }
  | { type: 'flags-changed'; userId: number; selector: FlagSelector; op: 'add' | 'remove'; mask: number }
  /** A topic move (later issue): the messages now live in another channel and/or topic. */
  | { type: 'messages-moved'; messageIds: number[]; streamId: number; topic: string };

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
  | { kind: 'has'; what: 'link' | 'image' | 'attachment' }
  /** Every word must occur in the content or the topic (case-insensitive). */
  | { kind: 'search'; words: string[] }
  | { kind: 'nothing' };

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
