import { DomainError } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { EDITABLE_MESSAGE_FLAGS, MESSAGE_FLAG_BITS, type MessageFlag } from './message-flags';

/**
 * A user's personal flag changes live in one stream per user, `message_flags-<userId>`.
 *
 * Why this boundary: a flag change has no invariant over earlier changes (add and remove are
 * idempotent set operations on the user's own rows; the global log order decides the outcome of
 * two concurrent changes, and either outcome is valid), so the stream carries no state and its
 * handler appends with expectedRevision `any` instead of folding a stream that grows with every
 * "mark as read". The stream exists so that a user's changes can be read back (audit, export).
 */
export const messageFlagsStream = (userId: number) => `message_flags-${userId}`;

/**
 * Which of the user's rows a change covers.
 *
 * - `ids`: the resolved message ids (POST /messages/flags, /messages/flags/narrow: at most 5,000
 *   after the clamp). Storing the ids, not the narrow, keeps a replay deterministic: a narrow
 *   (search words, `sender:` by email, a channel's current name) may resolve differently later.
 * - `channel` / `all`: "mark the channel / topic / everything read" over an id bound. These may
 *   cover 50,000+ messages; listing them would make one event megabytes and its projection one
 *   huge IN-list, while the store already answers a selection with one range UPDATE. The
 *   selection is still deterministic because it is bounded by `upToMessageId` (the newest message
 *   id when the command ran): a replay applies it to exactly the rows that existed at that point
 *   of the log (message ids are allocated in send order, and rows are added by `MessageSent`
 *   events that precede the change in the log), never to messages sent afterwards.
 */
export type FlagSelection =
  /**
   * `historicalIds`: the listed messages the user has no row for (public history they did not
   * receive); their rows are created with `read | historical` first (Zulip's
   * create_historical_user_messages), so the change applies to them as well.
   */
  | { kind: 'ids'; messageIds: number[]; historicalIds?: number[] }
  | { kind: 'channel'; streamId: number; topic: string | null; upToMessageId: number }
  | { kind: 'all'; upToMessageId: number };

export type FlagOperation = 'add' | 'remove';

/**
 * The user's flag changed on the selected rows (zerver/actions/message_flags.py).
 *
 * `changedIds` (a `channel` selection, recorded since the zulip-terminal session of
 * 2026-11-26): the rows the change found unset (removed: set) when it was decided, ascending,
 * newest 50,000; do_mark_stream_messages_as_read sends exactly these as the event's `messages`.
 * The projection still applies the range; the ids are only what clients are told.
 */
export type MessageFlagsChanged = {
  type: 'MessageFlagsChanged';
  data: { realmId: number; userId: number; flag: MessageFlag; op: FlagOperation; selection: FlagSelection; changedIds?: number[]; at: string };
};

/**
 * The handler has resolved the selection and counted what would change (`updatedCount`; for a
 * `channel` selection, `changedIds`); a change that updates nothing records nothing.
 */
export type ChangeMessageFlags = {
  type: 'ChangeMessageFlags';
  data: { realmId: number; userId: number; flag: string; op: string; selection: FlagSelection; updatedCount: number; changedIds?: number[]; at: string };
};

/** The flag names a client may send (UserMessage.flags minus NON_API_FLAGS). */
const API_FLAGS = Object.keys(MESSAGE_FLAG_BITS).filter((f) => f !== 'is_private');

/** zerver/lib/user_message.py DEFAULT_HISTORICAL_FLAGS: the flags of a message the user has access to but no row for. */
export const DEFAULT_HISTORICAL_FLAGS = MESSAGE_FLAG_BITS.read | MESSAGE_FLAG_BITS.historical;

/**
 * zerver/actions/message_flags.py do_update_message_flags: the flag must exist ("Invalid flag:
 * 'x'"), be editable ("Flag not editable: 'x'"; mentioned, wildcard mentions, has_alert_word,
 * historical are computed), and the operation be add or remove.
 */
export function checkFlagChange(flag: string, op: string): { flag: MessageFlag; op: FlagOperation; mask: number } {
  if (!API_FLAGS.includes(flag)) throw new DomainError(`Invalid flag: '${flag}'`);
  if (!EDITABLE_MESSAGE_FLAGS.includes(flag as MessageFlag)) throw new DomainError(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw new DomainError(`Invalid message flag operation: '${op}'`);
  return { flag: flag as MessageFlag, op, mask: MESSAGE_FLAG_BITS[flag as MessageFlag] };
}

export type MessageFlagsState = Record<string, never>;

export const messageFlagsDecider: Decider<ChangeMessageFlags, MessageFlagsChanged, MessageFlagsState> = {
  snapshot: { name: 'message-flags', version: 1 },
  decide: (command) => {
    const { realmId, userId, selection, updatedCount, changedIds, at } = command.data;
    const { flag, op } = checkFlagChange(command.data.flag, command.data.op);
    if (updatedCount === 0) return [];
    if (selection.kind === 'ids' && selection.messageIds.length === 0) return [];
    if (selection.kind === 'channel' && changedIds !== undefined) return [{ type: 'MessageFlagsChanged', data: { realmId, userId, flag, op, selection, changedIds, at } }];
    return [{ type: 'MessageFlagsChanged', data: { realmId, userId, flag, op, selection, at } }];
  },
  evolve: (state) => state,
  initialState: () => ({}),
};

/**
 * The rows a selection covers, in the shape of the user-message store's FlagSelector (every
 * given condition holds; ids inclusive): an id list, or one range over a channel, topic or all.
 */
export function selectionConditions(selection: FlagSelection): { messageIds?: number[]; maxId?: number; streamId?: number; topic?: string; createHistorical?: number[] } {
  switch (selection.kind) {
    case 'ids':
      return selection.historicalIds?.length ? { messageIds: selection.messageIds, createHistorical: selection.historicalIds } : { messageIds: selection.messageIds };
    case 'channel':
      return selection.topic === null
        ? { streamId: selection.streamId, maxId: selection.upToMessageId }
        : { streamId: selection.streamId, topic: selection.topic, maxId: selection.upToMessageId };
    case 'all':
      return { maxId: selection.upToMessageId };
  }
}
