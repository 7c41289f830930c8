import { DEFAULT_HISTORICAL_FLAGS, type FlagOperation, type FlagSelection } from './message-flags.decider';
import type { MessageFlag } from './message-flags';

/** zerver/views/message_flags.py: at most this many messages per narrow request. */
export const MAX_FLAG_NARROW_MESSAGES = 5000;
const MIN_FLAG_NARROW_SIDE = 1000;

/**
 * update_message_flags_for_narrow's clamp: `num_before = min(num_before, max(5000 - num_after,
 * 1000))`, then `num_after = min(num_after, max(5000 - num_before, 1000))`: `num_before` gives way
 * first, so at most 5,000 are processed (plus the anchor) and each side keeps up to 1,000.
 */
export function clampFlagRange(numBefore: number, numAfter: number): { numBefore: number; numAfter: number } {
  const before = Math.min(numBefore, Math.max(MAX_FLAG_NARROW_MESSAGES - numAfter, MIN_FLAG_NARROW_SIDE));
  const after = Math.min(numAfter, Math.max(MAX_FLAG_NARROW_MESSAGES - before, MIN_FLAG_NARROW_SIDE));
  return { numBefore: before, numAfter: after };
}

/** What a flag change over listed messages reads before it is decided. */
export type FlagChangeOverIds = {
  /** checkFlagChange's answer. */
  flag: MessageFlag;
  op: FlagOperation;
  mask: number;
  /** The messages to change, unique, ascending. */
  ids: number[];
  /** The ids as the request listed them (echoed by POST /messages/flags). */
  requested: number[];
  /** The user's flags on those of `ids` they have a row for. */
  rows: ReadonlyMap<number, number>;
  /**
   * For `read` + `remove` only: the channel of each of `ids` that is a message of a channel the
   * user is not subscribed to (ignored otherwise).
   */
  unsubscribedChannelOf: ReadonlyMap<number, number>;
};

/**
 * The decision do_update_message_flags takes over listed messages, before anything is stored:
 *
 * - `read` + `remove` skips messages of channels the user is not subscribed to and reports those
 *   channels (`ignoredChannels`, ascending); `processed` is `requested` without them;
 * - a message without a row counts as DEFAULT_HISTORICAL_FLAGS (`read | historical`); `changing`
 *   lists the messages whose flag changes;
 * - when the change alters a message without a row (adding `starred` / `collapsed`, removing
 *   `read`), those messages are `historicalIds`: the caller checks access to each ("Invalid
 *   message(s)") and the selection creates their rows. Marking read or unstarring a message
 *   without a row changes nothing and needs no check.
 */
export function planFlagChangeOverIds(input: FlagChangeOverIds): {
  selection: Extract<FlagSelection, { kind: 'ids' }>;
  changing: number[];
  historicalIds: number[];
  processed: number[];
  ignoredChannels: number[];
} {
  const { flag, op, mask, ids, requested, rows } = input;
  let selected = ids;
  let processed = requested;
  let ignoredChannels: number[] = [];
  if (flag === 'read' && op === 'remove') {
    const skipped = new Set(ids.filter((id) => input.unsubscribedChannelOf.has(id)));
    ignoredChannels = [...new Set([...skipped].map((id) => input.unsubscribedChannelOf.get(id)!))].sort((a, b) => a - b);
    selected = ids.filter((id) => !skipped.has(id));
    processed = requested.filter((id) => !skipped.has(id));
  }
  const target = op === 'add' ? mask : 0;
  const changing = selected.filter((id) => ((rows.get(id) ?? DEFAULT_HISTORICAL_FLAGS) & mask) !== target);
  const historicalIds = (DEFAULT_HISTORICAL_FLAGS & mask) !== target ? changing.filter((id) => !rows.has(id)) : [];
  const selection: Extract<FlagSelection, { kind: 'ids' }> =
    historicalIds.length > 0 ? { kind: 'ids', messageIds: changing, historicalIds } : { kind: 'ids', messageIds: changing };
  return { selection, changing, historicalIds, processed, ignoredChannels };
}
