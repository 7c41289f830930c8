import type { FlagSelector, MessageQuery, NarrowCondition, NarrowTerm } from '@app/application';
import { searchMatch } from './sqlite-search';

/** Bits of um_messages.attrs. */
export const ATTR = { link: 1, image: 2, attachment: 4 } as const;
const RESOLVED_PREFIX = '✔ ';

export type Sql = { sql: string; params: (string | number)[] };

const int = (value: number): number => {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
};

/** A flags test written with literal masks, so that SQLite can use the partial flag indexes. */
export function flagTest(column: string, mask: number, set: 'all' | 'none' | 'any'): string {
  const m = int(mask);
  if (set === 'none') return `(${column} & ${m}) = 0`;
  // "All" of one bit is "any" of it, written as the partial indexes' WHERE is (is:starred).
  if (set === 'any' || (m !== 0 && (m & (m - 1)) === 0)) return `(${column} & ${m}) != 0`;
  return `(${column} & ${m}) = ${m}`;
}

/** Whether a condition reads the message index (um_messages m) rather than only the user's row. */
/**
 * A condition no message meets. Not the constant 0: SQLite drops a WHERE that is false before it
 * plans, and a statement with INDEXED BY (the partial indexes of is:unread, is:starred, …) then
 * fails to prepare ("no query solution"); a bound parameter keeps it a condition like any other.
 */
const NEVER: Sql = { sql: '(? = 1)', params: [0] };

export const needsMessage = (c: NarrowCondition): boolean => c.kind !== 'flags' && c.kind !== 'id' && c.kind !== 'ids' && c.kind !== 'nothing';

function condition(c: NarrowCondition, scope: MessageQuery['scope']): Sql {
  const flags = scope === 'user' ? 'um.flags' : 'COALESCE(um.flags, 0)';
  switch (c.kind) {
    case 'stream':
      return { sql: 'm.stream_id = ?', params: [int(c.streamId)] };
    case 'streams':
      if (c.streamIds.length === 0) return NEVER;
      return { sql: `m.stream_id IN (${c.streamIds.map(() => '?').join(',')})`, params: c.streamIds.map(int) };
    case 'topic':
      return { sql: 'm.topic_key = ?', params: [c.topic.toLowerCase()] };
    case 'sender':
      return { sql: 'm.sender_id = ?', params: [int(c.userId)] };
    case 'dm':
      return { sql: 'm.dm_key = ?', params: [c.dmKey] };
    case 'dm-including':
      return { sql: "instr(',' || m.dm_key || ',', ?) > 0", params: [`,${int(c.userId)},`] };
    case 'is-dm':
      return { sql: 'm.dm_key IS NOT NULL', params: [] };
    case 'flags':
      return { sql: flagTest(flags, c.mask, c.set), params: [] };
    case 'resolved':
      return { sql: 'substr(m.topic, 1, 2) = ?', params: [RESOLVED_PREFIX] };
    case 'id':
      return { sql: `${scope === 'user' ? 'um.message_id' : 'm.id'} = ?`, params: [int(c.id)] };
    case 'ids':
      // One JSON parameter, so the statement text does not depend on the list.
      return { sql: `${scope === 'user' ? 'um.message_id' : 'm.id'} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(c.ids.map(int))] };
    case 'has':
      return { sql: `(m.attrs & ${ATTR[c.what]}) != 0`, params: [] };
    case 'reacted':
      return { sql: 'm.reactions > 0', params: [] };
    case 'search':
      // findMessages drives a search from the index (sqlite-search.ts); this is the condition form.
      if (c.words.length === 0 && c.phrases.length === 0) return { sql: '1', params: [] };
      return { sql: 'm.id IN (SELECT rowid FROM um_search WHERE um_search MATCH ?)', params: [searchMatch(c.words, c.phrases)] };
    case 'nothing':
      return NEVER;
    case 'topics':
      return inTopics(c.topics);
    case 'muted': {
      // A muted topic, or a muted channel's message whose topic is not unmuted or followed.
      const parts: Sql[] = [];
      if (c.mutedTopics.length > 0) parts.push(inTopics(c.mutedTopics));
      if (c.mutedStreamIds.length > 0) {
        const streams = { sql: `m.stream_id IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(c.mutedStreamIds.map(int))] };
        if (c.visibleTopics.length === 0) parts.push(streams);
        else {
          const visible = inTopics(c.visibleTopics);
          parts.push({ sql: `(${streams.sql} AND NOT (${visible.sql}))`, params: [...streams.params, ...visible.params] });
        }
      }
      if (parts.length === 0) return NEVER;
      return { sql: `(m.stream_id IS NOT NULL AND (${parts.map((p) => p.sql).join(' OR ')}))`, params: parts.flatMap((p) => p.params) };
    }
  }
}

/** The key topic lists are matched by: "<channel id>:<lower-cased topic>". */
export const channelTopicKey = (streamId: number, topic: string) => `${int(streamId)}:${topic.toLowerCase()}`;

/** Channel messages of the listed topics; one JSON parameter, so the statement text does not depend on the list. */
function inTopics(topics: { streamId: number; topic: string }[]): Sql {
  if (topics.length === 0) return NEVER;
  return {
    sql: "(m.stream_id IS NOT NULL AND (m.stream_id || ':' || m.topic_key) IN (SELECT value FROM json_each(?)))",
    params: [JSON.stringify(topics.map((t) => channelTopicKey(t.streamId, t.topic)))],
  };
}

/**
 * The WHERE conditions of a narrow. A negated condition is NOT COALESCE(cond, 0), so a missing
 * value (a direct message has no topic) counts as "does not match", as in Zulip's queries.
 */
export function narrowWhere(terms: NarrowTerm[], scope: MessageQuery['scope']): Sql {
  const sql: string[] = [];
  const params: (string | number)[] = [];
  for (const term of terms) {
    const c = condition(term, scope);
    sql.push(term.negated ? `NOT COALESCE((${c.sql}), 0)` : `(${c.sql})`);
    params.push(...c.params);
  }
  return { sql: sql.length > 0 ? sql.join(' AND ') : '1', params };
}

/** The rows a flag change selects, as conditions on `table` (um_user_messages or um_inbox, unaliased). */
export function selectorWhere(selector: FlagSelector, table = 'um_user_messages'): Sql {
  const sql: string[] = [];
  const params: (string | number)[] = [];
  if (selector.messageIds !== undefined) {
    sql.push('message_id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(selector.messageIds.map(int)));
  }
  if (selector.minId !== undefined) {
    sql.push('message_id >= ?');
    params.push(int(selector.minId));
  }
  if (selector.maxId !== undefined) {
    sql.push('message_id <= ?');
    params.push(int(selector.maxId));
  }
  const onMessage: string[] = [];
  if (selector.streamId !== undefined) {
    onMessage.push('m.stream_id = ?');
    params.push(int(selector.streamId));
  }
  if (selector.topic !== undefined) {
    onMessage.push('m.topic_key = ?');
    params.push(selector.topic.toLowerCase());
  }
  if (selector.dmKey !== undefined) {
    onMessage.push('m.dm_key = ?');
    params.push(selector.dmKey);
  }
  if (onMessage.length > 0) {
    sql.push(`EXISTS (SELECT 1 FROM um_messages m WHERE m.id = ${table}.message_id AND ${onMessage.join(' AND ')})`);
  }
  return { sql: sql.length > 0 ? sql.join(' AND ') : '1', params };
}
