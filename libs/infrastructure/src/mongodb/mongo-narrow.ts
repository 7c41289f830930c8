import type { Document } from 'mongodb';
import type { FlagSelector, NarrowCondition, NarrowTerm } from '@app/application';
import { phraseSequence, porterStem } from '@app/domain';

/** Bits of the `a` (attributes) field. */
export const ATTR = { link: 1, image: 2, attachment: 4 } as const;
export const MATCH_NOTHING: Document = { _id: { $in: [] } };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a query reads: per-user rows (`m` is the message id) or the message index (`_id`). */
export type NarrowTarget = 'rows' | 'messages';

/** Whether a condition needs the message index (the search text and the reaction count are not copied onto the rows). */
export const needsMessageDocument = (c: NarrowCondition): boolean => c.kind === 'search' || c.kind === 'reacted';
export const needsUserRow = (c: NarrowCondition): boolean => c.kind === 'flags';

export function flagCondition(field: string, mask: number, set: 'all' | 'none' | 'any'): Document {
  if (set === 'all') return { [field]: { $bitsAllSet: mask } };
  if (set === 'none') return { [field]: { $bitsAllClear: mask } };
  return { [field]: { $bitsAnySet: mask } };
}

/**
 * One narrow condition as a MongoDB filter. `prefix` is where the message's fields are: '' on
 * the rows (which carry copies of them) or the message index, 'msg.' after a $lookup of the
 * message; flags are read from `flagsField`.
 */
function condition(c: NarrowCondition, target: NarrowTarget, prefix: string, flagsField: string): Document {
  const f = (name: string) => `${prefix}${name}`;
  switch (c.kind) {
    case 'stream':
      return { [f('s')]: c.streamId };
    case 'streams':
      return { [f('s')]: { $in: c.streamIds } };
    case 'topic':
      return { [f('tk')]: c.topic.toLowerCase() };
    case 'sender':
      return { [f('snd')]: c.userId };
    case 'dm':
      return { [f('dm')]: c.dmKey };
    case 'dm-including':
      return { [f('dm')]: { $regex: `(^|,)${c.userId}(,|$)` } };
    case 'is-dm':
      return { [f('dm')]: { $type: 'string' } };
    case 'flags':
      return flagCondition(flagsField, c.mask, c.set);
    case 'resolved':
      return { [f('rs')]: true };
    case 'id':
      return { [target === 'rows' ? 'm' : '_id']: c.id };
    case 'ids':
      return { [target === 'rows' ? 'm' : '_id']: { $in: c.ids } };
    case 'has':
      return { [f('a')]: { $bitsAnySet: ATTR[c.what] } };
    case 'reacted':
      return { [f('rx')]: { $gt: 0 } };
    case 'search': {
      // The word index (mongo-search.ts): every word's stem among the message's, each phrase's
      // stems in order in the content's or the topic's sequence.
      const parts: Document[] = [];
      if (c.words.length > 0) parts.push({ [f('w')]: { $all: c.words.map(porterStem) } });
      for (const phrase of c.phrases) {
        const pattern = escapeRegex(phraseSequence(phrase));
        parts.push({ $or: [{ [f('q')]: { $regex: pattern } }, { [f('qt')]: { $regex: pattern } }] });
      }
      return and(parts);
    }
    case 'nothing':
      return MATCH_NOTHING;
    case 'topics':
      return inTopics(c.topics, f);
    case 'muted': {
      // A muted topic, or a muted channel's message whose topic is not unmuted or followed.
      const parts: Document[] = [];
      if (c.mutedTopics.length > 0) parts.push(inTopics(c.mutedTopics, f));
      if (c.mutedStreamIds.length > 0) {
        const streams = { [f('s')]: { $in: c.mutedStreamIds } };
        parts.push(c.visibleTopics.length === 0 ? streams : { $and: [streams, { $nor: [inTopics(c.visibleTopics, f)] }] });
      }
      if (parts.length === 0) return MATCH_NOTHING;
      return parts.length === 1 ? parts[0] : { $or: parts };
    }
  }
}

/** Channel messages of the listed topics (topic compared case-insensitively). */
function inTopics(topics: { streamId: number; topic: string }[], f: (name: string) => string): Document {
  if (topics.length === 0) return MATCH_NOTHING;
  return { $or: topics.map((t) => ({ [f('s')]: t.streamId, [f('tk')]: t.topic.toLowerCase() })) };
}

/**
 * A narrow's terms as filters, split into what can be tested before a $lookup (`early`) and what
 * needs the looked-up document (`late`). A negated term is {$nor: [cond]}: a missing field does
 * not match, so its negation does, as in the embedded store.
 */
export function narrowFilters(
  terms: NarrowTerm[],
  target: NarrowTarget,
  isLate: (c: NarrowCondition) => boolean,
  latePrefix: string,
  flagsField: { early: string; late: string },
): { early: Document[]; late: Document[] } {
  const early: Document[] = [];
  const late: Document[] = [];
  for (const term of terms) {
    const lateTerm = isLate(term);
    const cond = condition(term, target, lateTerm ? latePrefix : '', lateTerm ? flagsField.late : flagsField.early);
    (lateTerm ? late : early).push(term.negated ? { $nor: [cond] } : cond);
  }
  return { early, late };
}

/** A flag change's selection as a filter on the rows. */
export function selectorFilter(userId: number, selector: FlagSelector): Document {
  const filter: Document = { u: userId };
  const m: Document = {};
  if (selector.messageIds !== undefined) m.$in = selector.messageIds;
  if (selector.minId !== undefined) m.$gte = selector.minId;
  if (selector.maxId !== undefined) m.$lte = selector.maxId;
  if (Object.keys(m).length > 0) filter.m = m;
  if (selector.streamId !== undefined) filter.s = selector.streamId;
  if (selector.topic !== undefined) filter.tk = selector.topic.toLowerCase();
  if (selector.dmKey !== undefined) filter.dm = selector.dmKey;
  return filter;
}

export const and = (filters: Document[]): Document => (filters.length === 0 ? {} : filters.length === 1 ? filters[0] : { $and: filters });
