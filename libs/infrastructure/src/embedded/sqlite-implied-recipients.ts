import type { FlagSelector, NarrowTerm } from '@app/application';
import { MESSAGE_FLAG_BITS } from '@app/domain';

/**
 * Implied recipients (issue #23, eighth look): the per-user rows of a channel message that carry
 * nothing but the read state are not written. They are implied by the channel's membership
 * intervals, and the read state by a watermark per user and channel:
 *
 * - `um_members (user_id, stream_id, from_id, to_id)`: the user is a recipient of the channel's
 *   implied messages with `from_id <= id < to_id` (to_id NULL: open). The store derives the
 *   intervals from the rows each send gives it, so they are exactly the recipients the send
 *   decided (its subscribers), whatever decided them.
 * - `um_read_to (user_id, stream_id, read_to)`: the user's implied rows of the channel up to
 *   read_to are read, the later ones unread.
 * - The channel's last implied id (kept in memory; derived when loaded as the newest of its
 *   implied messages and of its intervals' bounds): a message at or below it (ids out of order,
 *   as concurrent senders can produce) gets every row written, since moving an interval's bound
 *   there would change the recipients of later messages.
 * - `um_messages.implied` marks the messages whose rows are implied. An explicit row of the user
 *   (in any of the three row tables) always wins over the implied one: a sender's read row, a
 *   mention, a star, a read or unread exception. A message moved to another channel gets its
 *   implied rows written first and stops being implied.
 */

const READ = MESSAGE_FLAG_BITS.read;

/** Ids above every message id (an open interval's end, an unbounded range). */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** One interval of a user's membership split at the user's watermark: every implied row in it has `flags`. */
export type ImpliedRange = { streamId: number; lo: number; hi: number; flags: number };

/** An interval row of um_members with the user's watermark of its channel. */
export type MemberInterval = { streamId: number; from: number; to: number | null; readTo: number };

/** Splits intervals at their watermarks: the read part, then the unread part (inclusive bounds). */
export function impliedRanges(intervals: MemberInterval[]): ImpliedRange[] {
  const ranges: ImpliedRange[] = [];
  for (const { streamId, from, to, readTo } of intervals) {
    const hi = to === null ? MAX_ID : to - 1;
    if (from <= Math.min(hi, readTo)) ranges.push({ streamId, lo: from, hi: Math.min(hi, readTo), flags: READ });
    if (Math.max(from, readTo + 1) <= hi) ranges.push({ streamId, lo: Math.max(from, readTo + 1), hi, flags: 0 });
  }
  return ranges;
}

/** Whether a user in `user` (an SQL expression) is an implied recipient of message `m`. */
export const memberOf = (user: string): string =>
  `EXISTS (SELECT 1 FROM um_members i WHERE i.user_id = ${user} AND i.stream_id = m.stream_id AND i.from_id <= m.id AND (i.to_id IS NULL OR m.id < i.to_id))`;

/** The watermark of `user` in message `m`'s channel (0: none). */
export const readTo = (user: string): string =>
  `coalesce((SELECT w.read_to FROM um_read_to w WHERE w.user_id = ${user} AND w.stream_id = m.stream_id), 0)`;

/** The flags of `user`'s implied row of `m` (read or nothing), for a message the user is known to be a recipient of. */
export const impliedFlags = (user: string): string => `(m.id <= ${readTo(user)})`;

/** The flags of `user`'s implied row of `m`, or NULL when there is none (not implied, not a recipient). */
export const impliedFlagsOrNull = (user: string): string => `(CASE WHEN m.implied = 1 AND ${memberOf(user)} THEN ${impliedFlags(user)} END)`;

/** `user` has no explicit row of `m` in any of the three row tables. */
export const noExplicitRow = (user: string): string =>
  `NOT EXISTS (SELECT 1 FROM um_user_messages a WHERE a.user_id = ${user} AND a.message_id = m.id)
   AND NOT EXISTS (SELECT 1 FROM um_unread c WHERE c.user_id = ${user} AND c.message_id = m.id)
   AND NOT EXISTS (SELECT 1 FROM um_inbox b WHERE b.message_id = m.id AND b.user_id = ${user})`;

/** The flags a change leaves on a row that had `flags`. */
export const changedFlags = (flags: number, op: 'add' | 'remove', mask: number): number => (op === 'add' ? flags | mask : flags & ~mask);

/** Whether a flag change changes a row with `flags` (what countFlagChanges counts). */
export const changesFlags = (flags: number, op: 'add' | 'remove', mask: number): boolean => changedFlags(flags, op, mask) !== flags;

/** A flags test evaluated in JavaScript, as flagTest writes it in SQL. */
function flagsMatch(flags: number, mask: number, set: 'all' | 'none' | 'any'): boolean {
  if (set === 'none') return (flags & mask) === 0;
  if (set === 'any' || (mask !== 0 && (mask & (mask - 1)) === 0)) return (flags & mask) !== 0;
  return (flags & mask) === mask;
}

/** Whether rows with `flags` can match a narrow's flag terms (an implied range holds rows of one flags value). */
export function flagTermsAllow(terms: NarrowTerm[], flags: number): boolean {
  return terms.every((t) => t.kind !== 'flags' || flagsMatch(flags, t.mask, t.set) !== t.negated);
}

/** Which channels a narrow's matches can be in, when its terms say (undefined: any; empty: none, as for direct messages). */
export function narrowChannels(terms: NarrowTerm[]): number[] | undefined {
  let channels: number[] | undefined;
  const restrict = (ids: number[]) => (channels = channels === undefined ? ids : channels.filter((id) => ids.includes(id)));
  for (const t of terms) {
    if (t.negated) continue;
    if (t.kind === 'stream') restrict([t.streamId]);
    else if (t.kind === 'streams') restrict(t.streamIds);
    else if (t.kind === 'dm' || t.kind === 'dm-including' || t.kind === 'is-dm' || t.kind === 'nothing') restrict([]);
  }
  return channels;
}

/** A selector's conditions on the message `m` of an implied row (ids and ranges apart), with named parameters. */
export function impliedSelectorWhere(selector: FlagSelector, { idBounds = true } = {}): { sql: string; params: Record<string, number | string> } {
  const sql: string[] = [];
  const params: Record<string, number | string> = {};
  // Off where the caller has clamped a range to them already (given twice, SQLite may seek by the looser bounds).
  if (idBounds && selector.minId !== undefined) {
    sql.push('m.id >= @minId');
    params.minId = selector.minId;
  }
  if (idBounds && selector.maxId !== undefined) {
    sql.push('m.id <= @maxId');
    params.maxId = selector.maxId;
  }
  if (selector.streamId !== undefined) {
    sql.push('m.stream_id = @streamId');
    params.streamId = selector.streamId;
  }
  if (selector.topic !== undefined) {
    sql.push('m.topic_key = @topic');
    params.topic = selector.topic.toLowerCase();
  }
  return { sql: sql.length > 0 ? sql.join(' AND ') : '1', params };
}
