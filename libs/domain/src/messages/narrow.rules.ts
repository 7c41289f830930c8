import { DomainError } from '../shared/domain-error';

/** One narrow term as the API sends it (zerver/lib/narrow.py NarrowParameter). */
export type NarrowParameter = { operator: string; operand: string | number | number[]; negated: boolean };

/** zerver/lib/narrow.py BadNarrowOperatorError: code BAD_NARROW, with `desc`. */
export const badNarrow = (desc: string) => new DomainError(`Invalid narrow operator: ${desc}`, 'BAD_NARROW', 400, { desc });

/** zerver/lib/narrow.py InvalidOperatorCombinationError: code BAD_NARROW, with `desc`. */
export const badNarrowCombination = (desc: string) => new DomainError(`Invalid narrow operator combination: ${desc}`, 'BAD_NARROW', 400, { desc });

const CHANNEL_OPERATORS = ['channel', 'stream'];
const ID_OPERATORS = [...CHANNEL_OPERATORS, 'id', 'sender', 'group-pm-with', 'dm-including', 'with'];
const IDS_OPERATORS = ['pm-with', 'dm'];

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const invalid = (message: string) => new DomainError(message);

/**
 * NarrowParameter's validation: each term is a [operator, operand] pair of strings (the legacy
 * form) or an object with `operator`, `operand` and optionally `negated`; channel, id, sender,
 * dm-including and with operands may be integers, dm operands lists of user ids, search operands must not
 * be blank. An empty narrow is no narrow.
 */
export function parseNarrow(raw: unknown[]): NarrowParameter[] {
  return raw.map((elem, index) => {
    if (Array.isArray(elem)) {
      if (elem.length !== 2 || elem.some((x) => typeof x !== 'string')) throw invalid(`Invalid narrow[${index}]: element is not a string pair`);
      return { operator: elem[0] as string, operand: elem[1] as string, negated: false };
    }
    if (typeof elem !== 'object' || elem === null) throw invalid(`Invalid narrow[${index}]: dict or list required`);
    const term = elem as Record<string, unknown>;
    if (term.operand === undefined || term.operand === null) throw invalid(`Invalid narrow[${index}]: operand is missing`);
    if (term.operator === undefined || term.operator === null) throw invalid(`Invalid narrow[${index}]: operator is missing`);
    if (typeof term.operator !== 'string') throw invalid('operator is not a string');
    const { operator, operand } = term;
    let checked: NarrowParameter['operand'];
    if (ID_OPERATORS.includes(operator)) {
      if (typeof operand !== 'string' && !isInteger(operand)) throw invalid('operand is not a string or integer');
      checked = operand;
    } else if (IDS_OPERATORS.includes(operator)) {
      if (typeof operand === 'string') checked = operand;
      else if (!Array.isArray(operand)) throw invalid('operand is not a string or an integer list');
      else {
        const bad = operand.findIndex((x) => !isInteger(x));
        if (bad >= 0) throw invalid(`operand[${bad}] is not an integer`);
        checked = operand as number[];
      }
    } else if (operator === 'search') {
      if (typeof operand !== 'string') throw invalid('operand is not a string');
      if (operand.trim() === '') throw invalid('operand cannot be blank.');
      checked = operand;
    } else {
      if (typeof operand !== 'string') throw invalid('operand is not a string');
      checked = operand;
    }
    if (term.negated !== undefined && term.negated !== null && typeof term.negated !== 'boolean') throw invalid('negated is not a boolean');
    return { operator, operand: checked, negated: term.negated === true };
  });
}

/** can_narrow_define_conversation: a direct message conversation, or a channel and a topic. */
export function narrowDefinesConversation(narrow: NarrowParameter[]): boolean {
  if (narrow.some((t) => t.operator === 'dm' || t.operator === 'pm-with')) return true;
  return narrow.some((t) => CHANNEL_OPERATORS.includes(t.operator)) && narrow.some((t) => t.operator === 'topic');
}

export const isChannelOperator = (operator: string) => CHANNEL_OPERATORS.includes(operator);

/** zerver/lib/narrow.py LARGER_THAN_MAX_MESSAGE_ID: the "newest" anchor. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
/** zerver/views/message_fetch.py MAX_MESSAGES_PER_FETCH. */
export const MAX_MESSAGES_PER_FETCH = 5000;

/**
 * zerver/lib/narrow.py parse_anchor_value: "newest", "oldest", "first_unread" (null: find it) or a
 * message id (negative is 0, beyond the largest is "newest").
 */
export function parseAnchor(anchor: string | undefined, useFirstUnreadAnchor: boolean): number | null {
  if (useFirstUnreadAnchor) return null;
  if (anchor === undefined) throw invalid("Missing 'anchor' argument.");
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'first_unread') return null;
  if (!/^\s*[+-]?\d+\s*$/.test(anchor)) throw invalid('Invalid anchor');
  const value = Number(anchor.trim());
  if (value < 0) return 0;
  return value > LARGER_THAN_MAX_MESSAGE_ID ? LARGER_THAN_MAX_MESSAGE_ID : value;
}

/** A matching message id and whatever the query returned with it. */
export type RangeRow<R> = { id: number } & R;

/**
 * zerver/lib/narrow.py post_process_limited_query: keep `numBefore` rows below the anchor, the
 * anchor and `numAfter` above, and tell whether the anchor was found and whether the range
 * reaches the oldest and newest matching messages.
 */
export function limitToRange<R>(
  rows: RangeRow<R>[],
  options: { numBefore: number; numAfter: number; anchor: number; anchoredToLeft: boolean; anchoredToRight: boolean },
): { rows: RangeRow<R>[]; foundAnchor: boolean; foundOldest: boolean; foundNewest: boolean } {
  const { anchor, anchoredToLeft, anchoredToRight } = options;
  const numAfter = anchoredToRight ? 0 : options.numAfter;
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  let before = anchoredToRight ? sorted : sorted.filter((r) => r.id < anchor);
  const at = anchoredToRight ? [] : sorted.filter((r) => r.id === anchor);
  let after = anchoredToRight ? [] : sorted.filter((r) => r.id > anchor);
  if (options.numBefore) before = before.slice(-options.numBefore);
  if (numAfter) after = after.slice(0, numAfter);
  return {
    rows: [...before, ...at, ...after],
    foundAnchor: at.length === 1,
    foundOldest: anchoredToLeft || before.length < options.numBefore,
    foundNewest: anchoredToRight || after.length < numAfter,
  };
}
