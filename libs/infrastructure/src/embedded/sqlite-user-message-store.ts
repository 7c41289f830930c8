import type Database from 'better-sqlite3';
import type {
  FlagSelector,
  GlobalPosition,
  IndexedMessage,
  MessageLocation,
  MessageMatch,
  MessageMoveEntry,
  MessageQuery,
  MessageRange,
  NarrowTerm,
  PositionedChanges,
  UnreadCounts,
  UnreadMessage,
  UserMessageChange,
  UserMessageRow,
  UserMessageStorePort,
} from '@app/application';
import { decodePosition, encodePosition, firstPerTopic } from '@app/application';
import { MENTION_FLAGS_MASK, MESSAGE_FLAG_BITS } from '@app/domain';
import {
  changedFlags,
  changesFlags,
  flagTermsAllow,
  type ImpliedRange,
  impliedFlags,
  impliedFlagsOrNull,
  impliedRanges,
  impliedSelectorWhere,
  MAX_ID,
  type MemberInterval,
  memberOf,
  narrowChannels,
  noExplicitRow,
  readTo,
} from './sqlite-implied-recipients';
import { ATTR, flagTest, narrowWhere, needsMessage, selectorWhere } from './sqlite-narrow';
import { isFreshLoad, whenFreshLoadFinishes } from './sqlite';
import { deleteAllMessages, prepareSearchIndex, searchIndexExists, searchMatch, searchTextMatcher } from './sqlite-search';

const READ = MESSAGE_FLAG_BITS.read;
const UNREAD = flagTest('flags', READ, 'none');
/** Zulip's DEFAULT_HISTORICAL_FLAGS. */
const HISTORICAL_FLAGS = MESSAGE_FLAG_BITS.read | MESSAGE_FLAG_BITS.historical;

export type SqliteUserMessageStoreOptions = {
  /** Merge the inbox into the main table once it holds this many messages (default 256). */
  compactAtMessages?: number;
  /** Merge at once, inside apply (tests); by default the merge runs in steps after apply returns. */
  compactSynchronously?: boolean;
  /**
   * An apply that adds at least this many messages (a catch-up's batch: a rebuild, a restore, a
   * projector behind the log) writes their rows straight into the main table instead of the inbox
   * (default 256).
   */
  directAtMessages?: number;
  /**
   * The inbox's bound in messages (default 8 × compactAtMessages): an apply that leaves more merges
   * the oldest rows before it returns, about twice the rows it added (at least one step), so the
   * inbox stays bounded even when applies leave the background merge no idle turn.
   */
  maxInboxMessages?: number;
  /** Rows per merge step, one transaction each (default 100,000). */
  mergeStepRows?: number;
  /**
   * Channel messages' rows that carry only the read state are implied by membership intervals
   * and a read watermark instead of written (default true; see sqlite-implied-recipients.ts).
   * Off, every row is written; reads understand implied rows either way.
   */
  impliedRecipients?: boolean;
  /**
   * unread_msgs' ids: up to this many explicit rows of the user are left out of the implied rows
   * by a set rather than probed message by message (default 10,000; 0 always probes, for tests).
   */
  explicitIdsCap?: number;
  /**
   * A search's first turns (findBySearch): this many of the messages the narrow lets the user read,
   * forty times as many of the index's matches, each turn twice the last (default: the page's
   * limit, at least 50). Tests set 1, so that small data takes many turns.
   */
  searchTurnRows?: number;
};

/** What the store keeps in memory of a channel's implied recipients: who receives its next message, and the newest implied message. */
type ChannelMembers = { open: Set<number>; lastId: number };

/** The two tables of merged rows: read rows (the main table) and unread rows (issue #23: a new row is written once, not into a table and an unread index). */
type RowTable = 'um_user_messages' | 'um_unread';
const ROW_TABLES: readonly RowTable[] = ['um_user_messages', 'um_unread'];
/** Which of the two tables holds a row with these flags. */
const tableOf = (flags: number): RowTable => ((flags & READ) !== 0 ? 'um_user_messages' : 'um_unread');

/**
 * The partial indexes of both row tables (like Zulip's zerver_usermessage_*_message_id indexes),
 * each holding only a user's rows of one kind, with the flags (so a query on them never reads the
 * table). SQLite's planner, without statistics, prefers the primary key (every row of the user, in
 * message order) to them; queries that should cost by the rows of that kind they return (starred,
 * mentioned, direct messages) name theirs with INDEXED BY. Unread rows need none: they are a table.
 */
const PARTIAL_INDEXES = {
  starred: flagTest('flags', MESSAGE_FLAG_BITS.starred, 'any'),
  mentioned: flagTest('flags', MENTION_FLAGS_MASK, 'any'),
  private: flagTest('flags', MESSAGE_FLAG_BITS.is_private, 'any'),
} as const;
type PartialIndex = keyof typeof PARTIAL_INDEXES;
/** ix_um_starred on the main table, ix_um_unread_starred on the unread table (and so on). */
const indexName = (table: RowTable, index: PartialIndex): string => (table === 'um_user_messages' ? `ix_um_${index}` : `ix_um_unread_${index}`);
/** The unread partial index of the layout before issue #23's (every row in the main table): its presence marks a database to migrate. */
const OLD_UNREAD_INDEX = 'ix_um_unread';

/**
 * The partial index a narrow's row-table arms can read instead of every row of the user: a
 * (non-negated) term selecting only rows of its kind. `is-dm`, `dm` and `dm-including` select direct messages,
 * whose rows all have is_private (rowsOf: every row of a direct message, and only those); the arm
 * then adds that flag test, which SQLite needs to see to use the index.
 */
function partialIndexFor(terms: NarrowTerm[]): PartialIndex | undefined {
  const flags = (mask: number, sets: string[]) => terms.some((t) => !t.negated && t.kind === 'flags' && t.mask === mask && sets.includes(t.set));
  if (terms.some((t) => !t.negated && (t.kind === 'is-dm' || t.kind === 'dm' || t.kind === 'dm-including')) || flags(MESSAGE_FLAG_BITS.is_private, ['all', 'any'])) return 'private';
  if (flags(MESSAGE_FLAG_BITS.starred, ['all', 'any'])) return 'starred';
  if (flags(MENTION_FLAGS_MASK, ['any'])) return 'mentioned';
  return undefined;
}

/** What a term says of the read bit of the rows it matches: the table the others cannot hold a match. */
function readStateOf(term: NarrowTerm): 'read' | 'unread' | undefined {
  if (term.kind !== 'flags' || (term.mask & READ) === 0) return undefined;
  if (!term.negated) return term.set === 'none' ? 'unread' : term.set === 'all' || term.mask === READ ? 'read' : undefined;
  if (term.mask !== READ) return undefined;
  return term.set === 'none' ? 'read' : 'unread';
}

/** The row tables a narrow's matches can be in (is:unread: the unread table only). */
function rowTablesFor(terms: NarrowTerm[]): RowTable[] {
  const states = new Set(terms.map(readStateOf));
  return ROW_TABLES.filter((table) => !states.has(table === 'um_user_messages' ? 'unread' : 'read'));
}

/**
 * A row table, named with the partial index whose WHERE is exactly `test` (a flag change's test:
 * unstarring selects the starred rows), so that a change over a channel or everything reads the
 * rows it may change rather than every row of the user.
 */
function rowTableFor(table: RowTable, test: string): string {
  const index = (Object.keys(PARTIAL_INDEXES) as PartialIndex[]).find((name) => PARTIAL_INDEXES[name] === test);
  return index === undefined ? table : `${table} INDEXED BY ${indexName(table, index)}`;
}

/**
 * What a flag change does in each row table: update the selected rows matching `test`, or (`to`)
 * move every selected row to the other table (marking read moves unread rows to the main table,
 * marking unread moves read rows to the unread table). Main-table rows all have the read bit and
 * unread-table rows none, so the read bit's part of a test is known per table.
 */
function rowChanges(op: 'add' | 'remove', mask: number): { table: RowTable; test: string; to?: RowTable }[] {
  if ((mask & READ) === 0) return ROW_TABLES.map((table) => ({ table, test: changeTest(op, mask) }));
  const rest = mask & ~READ;
  const [from, to]: RowTable[] = op === 'add' ? ['um_unread', 'um_user_messages'] : ['um_user_messages', 'um_unread'];
  const changes: { table: RowTable; test: string; to?: RowTable }[] = [];
  if (rest !== 0) changes.push({ table: to, test: changeTest(op, rest) });
  changes.push({ table: from, test: '1', to });
  return changes;
}

/** Strings compared as SQLite's BINARY collation does (their UTF-8 bytes), not by UTF-16 code units. */
const binaryCompare = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The first window of message ids a filtered narrow over both row tables reads (see findMessages). */
const WINDOW_IDS = 4096;

/** The ids in ascending order (the array itself when it already is). */
const ascending = (ids: number[]): number[] => {
  for (let i = 1; i < ids.length; i++) if (ids[i - 1] > ids[i]) return [...ids].sort((a, b) => a - b);
  return ids;
};

/** Rows the arm of a query reads: a row table, or the inbox probed message by message (CROSS JOIN fixes that order). */
type Arm = { from: (join: string, index?: PartialIndex) => string };
const rowArm = (table: RowTable): Arm => ({
  from: (join, index) =>
    index === undefined
      ? `${table} um${join} WHERE um.user_id = ?`
      : `${table} um INDEXED BY ${indexName(table, index)}${join} WHERE um.user_id = ? AND ${PARTIAL_INDEXES[index].replace('flags', 'um.flags')}`,
});
const ROW_ARMS: Record<RowTable, Arm> = { um_user_messages: rowArm('um_user_messages'), um_unread: rowArm('um_unread') };
const INBOX: Arm = {
  from: (join) => `um_inbox_messages im CROSS JOIN um_inbox um ON um.message_id = im.message_id AND um.user_id = ?${join} WHERE 1`,
};

/** The rows a flag change changes: those without every bit of the mask (add), with any (remove). */
const changeTest = (op: 'add' | 'remove', mask: number): string =>
  op === 'add' ? ((mask & (mask - 1)) === 0 ? flagTest('flags', mask, 'none') : `(flags & ${mask}) != ${mask}`) : flagTest('flags', mask, 'any');

/**
 * How a flag change finds one user's rows in the inbox (clustered by message, then user): one key
 * probe per inbox message. A selection by message ids already probes by key, and adding the
 * inbox-messages list there lets SQLite drive the update from that list instead: a scan of the
 * whole inbox per change, which made replays quadratic while the inbox grows between merges.
 */
const inboxProbe = (selector: FlagSelector): string =>
  selector.messageIds !== undefined ? '' : ' AND message_id IN (SELECT message_id FROM um_inbox_messages)';

/** Pending rows pack a message id and its flags (every flag bit is below 1,024) into one number. */
const FLAG_SPACE = 1024;

/** A message's rows grouped by flags (one insert each). */
function groupByFlags(rows: { userId: number; flags: number }[]): Map<number, number[]> {
  const byFlags = new Map<number, number[]>();
  for (const row of rows) {
    const group = byFlags.get(row.flags);
    if (group) group.push(row.userId);
    else byFlags.set(row.flags, [row.userId]);
  }
  return byFlags;
}

/**
 * Per-user message state in the embedded read-model database (the connection and file of
 * SqliteReadStore, whose `checkpoints` table it shares), in two levels, the first of two tables:
 *
 * - `um_user_messages (user_id, message_id, flags)`: the main table, read rows only (the read
 *   bit set), WITHOUT ROWID, clustered on its key so a user's rows are contiguous and in message
 *   order (about 12 bytes a row).
 * - `um_unread (user_id, message_id, flags)`: unread rows only, the same shape. Nearly every new
 *   row is unread; in one table with a partial unread index each was written twice (table and
 *   index), here once, which took a third off the merge's cost a row (issue #23, sixth look:
 *   bench/um-unread-layout.ts). Unread counts and unread_msgs read this table by its key. Marking
 *   read moves rows to the main table (one INSERT … SELECT and one DELETE of the same selection),
 *   marking unread moves them back.
 * - Both have partial indexes holding only the rows other hot queries want (starred, mentioned,
 *   direct: ix_um_starred and ix_um_unread_starred, …), like Zulip's
 *   zerver_usermessage_*_message_id indexes.
 * - `um_inbox (message_id, user_id, flags)`: new rows, read or not, clustered by message. A send
 *   to 10,000 users appends 10,000 rows at the end of this small tree (a few dozen pages) instead
 *   of touching one page of a user-clustered table per recipient: SQLite's WAL writes whole pages,
 *   so a fan-out into the user-clustered table costs ~8 KB per recipient and grows with history
 *   (measured: 53 ms per 10,000-recipient send on an empty table, 240 ms with 1,000 messages per
 *   user). `um_inbox_messages` lists the inbox's messages; a user's inbox rows are found by one
 *   key probe per inbox message.
 * - Every `compactAtMessages` messages the inbox is merged into the two tables (unread rows into
 *   um_unread, read ones into the main table), sorted by user, in steps (each one transaction):
 *   each step moves the inbox's oldest ~100,000 rows (whole messages, a range of the inbox's key),
 *   so a merge costs time linear in the rows it moves and each user's page is written once for
 *   hundreds of messages.
 * - The inbox is bounded (`maxInboxMessages`): an apply that leaves more merges some steps before
 *   it returns (about twice what it added). A catch-up's batches (`directAtMessages` messages or
 *   more) skip the inbox: their rows go straight into the two tables, each user's as one sorted
 *   run per table, which costs less CPU than an inbox row plus its merge (the batch's pages are
 *   written once, at commit).
 *
 * The invariant: a (user, message) key is in at most one of the three tables, and a row of the
 * main table always has the read bit, one of um_unread never. A message's rows go to the inbox
 * (or, in a catch-up, a table) only when it is first indexed; rows added later, by a move or as
 * historical, only where no table has one; a flag change that sets or clears the read bit moves
 * the rows in the same transaction. This is what lets the merge and the moves use INSERT OR
 * IGNORE (nothing is ignored) instead of a statement that writes a statement journal.
 *
 * Reads and flag changes cover every table a row may be in: a query runs on each and the results
 * merge (is:unread reads um_unread and the inbox only). A narrow filtered in message order over
 * both tables reads them in windows of message ids (see findMessages), so that a table holding
 * few matches is not read to its end.
 *
 * Since issue #23's eighth look, most channel rows are not written at all: the rows of a channel
 * message that carry only the read state are implied by membership intervals and a watermark per
 * user and channel (sqlite-implied-recipients.ts; `impliedRecipients`). Only rows with flags (the
 * sender's read row, mentions, stars, read and unread exceptions) go through the tables above, and
 * every read adds the implied rows the user has no explicit row for.
 *
 * prepare() migrates a database of the one-table layout (unread rows in the main table, under
 * ix_um_unread) once, under the write lock; a process of that older version must not share the
 * file afterwards (it would write unread rows into the main table again, unseen by this one).
 */
export class SqliteUserMessageStore implements UserMessageStorePort {
  private readonly statements = new Map<string, Database.Statement>();
  private compaction: Promise<void> | undefined;
  private readonly compactAt: number;
  private closed = false;
  private lastError: Error | undefined;
  private readonly directAt: number;
  private readonly maxInboxMessages: number;
  private readonly stepRows: number;
  /** The apply under way writes its new messages' rows into the main table (a catch-up batch). */
  private direct = false;
  /**
   * A catch-up batch's new rows not written yet, by user: `messageId * FLAG_SPACE + flags`. Each
   * user's rows go in as one sorted run (one statement per user, at the end of the batch or
   * before a change that touches them), which costs about a third less than a row at a time
   * spread over every recipient's page.
   */
  private readonly pending = new Map<number, number[]>();
  /** Rows the apply under way added to the inbox. */
  private inboxAdded = 0;
  private readonly implied: boolean;
  /**
   * Channels' open members and newest implied message, loaded on first use. Only the projector's
   * process writes them; the cache is dropped when another connection committed since (SQLite's
   * data_version) and when an apply fails (its changes rolled back).
   */
  private readonly channels = new Map<number, ChannelMembers>();
  private dataVersion: number | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly options: SqliteUserMessageStoreOptions = {},
  ) {
    this.compactAt = options.compactAtMessages ?? 256;
    this.directAt = options.directAtMessages ?? 256;
    this.maxInboxMessages = options.maxInboxMessages ?? 8 * this.compactAt;
    this.stepRows = Math.max(1, options.mergeStepRows ?? 100_000);
    this.implied = options.impliedRecipients ?? true;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async prepare(): Promise<void> {
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS um_messages (
        id INTEGER PRIMARY KEY, realm_id INTEGER NOT NULL, sender_id INTEGER NOT NULL, stream_id INTEGER,
        topic TEXT, topic_key TEXT, dm_key TEXT, attrs INTEGER NOT NULL, search TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ix_um_messages_realm ON um_messages (realm_id, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_stream ON um_messages (stream_id, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_stream_topic ON um_messages (stream_id, topic_key, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_sender ON um_messages (sender_id, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_dm ON um_messages (dm_key, id) WHERE dm_key IS NOT NULL;
      CREATE INDEX IF NOT EXISTS ix_um_messages_realm_direct ON um_messages (realm_id, id) WHERE dm_key IS NOT NULL;
      CREATE TABLE IF NOT EXISTS um_user_messages (
        user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS um_unread (
        user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS um_inbox (
        message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS um_inbox_messages (message_id INTEGER PRIMARY KEY);
    `);
    // Under the write lock (processes sharing the file may prepare at the same time; the second
    // finds the work done): the partial indexes hold the flags (covering), and one of an earlier
    // layout, (user_id, message_id), is rebuilt; a database of the layout before issue #23's (its
    // unread rows in the main table, under ix_um_unread) has them moved to um_unread, once.
    this.db
      .transaction(() => {
        this.migrateUnreadRows();
        for (const table of ROW_TABLES) {
          for (const [index, where] of Object.entries(PARTIAL_INDEXES) as [PartialIndex, string][]) {
            const name = indexName(table, index);
            const existing = this.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) as { sql: string } | undefined;
            if (existing && !existing.sql.includes('(user_id, message_id, flags)')) this.db.exec(`DROP INDEX ${name}`);
            this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (user_id, message_id, flags) WHERE ${where}`);
          }
        }
      })
      .immediate();
    // Moves of messages (issue 5): where each moved message was and went, by whom, when.
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS um_moves (
        message_id INTEGER NOT NULL, at INTEGER NOT NULL, user_id INTEGER NOT NULL, target_id INTEGER NOT NULL,
        prev_stream INTEGER, stream INTEGER, prev_topic TEXT, topic TEXT
      );
      CREATE INDEX IF NOT EXISTS ix_um_moves_message ON um_moves (message_id);
    `);
    // Implied recipients (sqlite-implied-recipients.ts): membership intervals, watermarks, and
    // the marker on um_messages (a database from before has none: its messages keep their rows).
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS um_members (
        user_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, from_id INTEGER NOT NULL, to_id INTEGER, PRIMARY KEY (user_id, stream_id, from_id)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS ix_um_members_stream ON um_members (stream_id, to_id, user_id);
      CREATE TABLE IF NOT EXISTS um_read_to (
        user_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, read_to INTEGER NOT NULL, PRIMARY KEY (user_id, stream_id)
      ) WITHOUT ROWID;
    `);
    this.db
      .transaction(() => {
        const columns = this.db.prepare('PRAGMA table_info(um_messages)').all() as { name: string }[];
        if (!columns.some((c) => c.name === 'implied')) this.db.exec('ALTER TABLE um_messages ADD COLUMN implied INTEGER NOT NULL DEFAULT 0');
        // has:reaction (issue 34): each message's reaction count; messages indexed before count 0 until a rebuild (docs/operations.md).
        if (!columns.some((c) => c.name === 'reactions')) this.db.exec('ALTER TABLE um_messages ADD COLUMN reactions INTEGER NOT NULL DEFAULT 0');
      })
      .immediate();
    // Search (issue 37): the FTS5 index over um_messages, built from the messages already indexed
    // when a database from before it is opened (under the write lock, like the migrations above).
    // A database filled from zero (a rebuild's copy, a first start over a log) gets it when the
    // load has caught up, built from all its messages at once: FTS5 builds an index from a table
    // about eight times faster than it adds rows one transaction at a time (docs/benchmarks.md,
    // "Search"). A search before then builds it first (ensureSearchIndex).
    if (isFreshLoad(this.db) && !searchIndexExists(this.db)) whenFreshLoadFinishes(this.db, () => this.ensureSearchIndex());
    else this.ensureSearchIndex();
    // An inbox left by an earlier process (or by an older version, whose merge fell behind a
    // catch-up) is merged in the background, in steps; its rows stay readable meanwhile.
    if (!this.options.compactSynchronously) void this.maybeCompact();
  }

  /**
   * The layout before issue #23's kept unread rows in the main table (with the partial index
   * ix_um_unread): they move to um_unread, in key order, and the index goes, which marks the
   * migration done (inside prepare's write transaction: all of it or nothing). Inbox rows stay
   * where they are; the merge splits them.
   */
  private migrateUnreadRows(): void {
    const old = this.db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'index' AND name = ? AND tbl_name = 'um_user_messages'").get(OLD_UNREAD_INDEX);
    if (old === undefined) return;
    // Read through the old index when it holds the flags (covering); an older one, (user_id, message_id), would visit the table for each.
    this.db.exec(`INSERT OR IGNORE INTO um_unread (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_user_messages WHERE ${UNREAD} ORDER BY user_id, message_id`);
    this.db.exec(`DELETE FROM um_user_messages WHERE ${UNREAD}`);
    this.db.exec(`DROP INDEX ${OLD_UNREAD_INDEX}`);
  }

  async apply(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): Promise<void> {
    let messages = 0;
    for (const batch of batches) for (const change of batch.changes) if (change.type === 'message-added') messages++;
    this.direct = messages >= this.directAt;
    this.inboxAdded = 0;
    try {
      this.applyInTransaction(batches, checkpoint);
    } finally {
      this.direct = false;
      this.pending.clear();
    }
    // Past the bound (a catch-up whose batches are too small to skip the inbox, or an inbox left
    // by an older version): a bounded merge before returning, about twice the rows this apply added.
    // (The first check reads at most a few hundred keys: live, the inbox is under it nearly always.)
    const bound = this.maxInboxMessages;
    if (!this.closed && this.inboxOver(Math.min(bound, this.compactAt - 1)) && this.inboxOver(bound)) this.mergeSteps(Math.max(this.stepRows, 2 * this.inboxAdded));
    await this.maybeCompact();
  }

  private applyInTransaction(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): void {
    try {
      this.applyBatches(batches, checkpoint);
    } catch (error) {
      this.channels.clear();
      throw error;
    }
  }

  private applyBatches(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): void {
    this.db
      .transaction(() => {
        // Under the write lock: another connection's commit since ours may have changed the intervals.
        const version = (this.statement('PRAGMA data_version').get() as { data_version: number }).data_version;
        if (version !== this.dataVersion) this.channels.clear();
        this.dataVersion = version;
        const stored = this.readCheckpoint(checkpoint.name);
        for (const batch of batches) {
          if (stored !== undefined && batch.position <= stored) continue;
          for (const change of batch.changes) this.applyChange(change);
        }
        this.writePending();
        if (stored === undefined || checkpoint.position > stored) {
          this.statement('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE position < excluded.position')
            .run(checkpoint.name, encodePosition(checkpoint.position));
        }
      })
      .immediate();
  }

  /** Whether the inbox lists more than `messages` messages (reads at most that many keys). */
  private inboxOver(messages: number): boolean {
    return this.statement('SELECT 1 AS x FROM um_inbox_messages ORDER BY message_id LIMIT 1 OFFSET ?').get(Math.max(0, messages)) !== undefined;
  }

  /** Writes the pending rows (of one user, or of all) into the row tables, each user's read and unread rows as one sorted run each. */
  private writePending(userId?: number): void {
    if (this.pending.size === 0) return;
    const insert = (table: RowTable) => this.statement(`INSERT OR IGNORE INTO ${table} (user_id, message_id, flags) SELECT ?, value / ${FLAG_SPACE}, value % ${FLAG_SPACE} FROM json_each(?)`);
    const users = userId === undefined ? [...this.pending.keys()].sort((a, b) => a - b) : this.pending.has(userId) ? [userId] : [];
    for (const user of users) {
      const read: number[] = [];
      const unread: number[] = [];
      for (const packed of ascending(this.pending.get(user)!)) ((packed % FLAG_SPACE) & READ ? read : unread).push(packed);
      if (read.length > 0) insert('um_user_messages').run(user, JSON.stringify(read));
      if (unread.length > 0) insert('um_unread').run(user, JSON.stringify(unread));
      this.pending.delete(user);
    }
  }

  private applyChange(change: UserMessageChange): void {
    // Pending rows of a catch-up batch are written before a change that reads or changes them:
    // a flag change touches its user's rows only, the others any user's.
    if (change.type === 'flags-changed') this.writePending(change.userId);
    else if (change.type !== 'message-added') this.writePending();
    switch (change.type) {
      case 'message-added':
        return this.addMessage(change.message, change.rows);
      case 'flags-changed': {
        // Implied rows first: a watermark moves, or the rows the change touches are written out.
        const advance = this.impliedFlagChange(change);
        if (change.selector.createHistorical?.length) this.createHistorical(change.userId, change.selector.createHistorical);
        const flags = change.op === 'add' ? `flags | ${change.mask}` : `flags & ~${change.mask}`;
        for (const { table, test, to } of rowChanges(change.op, change.mask)) {
          const { sql, params } = selectorWhere(change.selector, table);
          if (to === undefined) {
            this.statement(`UPDATE ${rowTableFor(table, test)} SET flags = ${flags} WHERE user_id = ? AND ${test} AND ${sql}`).run(change.userId, ...params);
            continue;
          }
          // A move between the row tables: copied with the new flags, then deleted (the same selection).
          // OR IGNORE: no key is in both tables (see the class comment), so nothing is ignored; an
          // INSERT … SELECT that can fail half-way (ABORT) would write a statement journal as it goes.
          this.statement(`INSERT OR IGNORE INTO ${to} (user_id, message_id, flags) SELECT user_id, message_id, ${flags} FROM ${table} WHERE user_id = ? AND ${sql} ORDER BY user_id, message_id`)
            .run(change.userId, ...params);
          this.statement(`DELETE FROM ${table} WHERE user_id = ? AND ${sql}`).run(change.userId, ...params);
        }
        const { sql, params } = selectorWhere(change.selector, 'um_inbox');
        const test = changeTest(change.op, change.mask);
        this.statement(`UPDATE um_inbox SET flags = ${flags} WHERE user_id = ?${inboxProbe(change.selector)} AND ${test} AND ${sql}`).run(change.userId, ...params);
        if (advance) this.advanceWatermarks(change.userId, change.selector);
        return;
      }
      case 'messages-moved': {
        const ids = JSON.stringify(change.messageIds);
        // Messages leaving their channel leave its intervals: their implied rows are written out
        // (before the channel changes) and they stop being implied.
        const leaving = 'm.stream_id IS NOT @streamId';
        this.materializeRecipients(ids, null, leaving, { streamId: change.streamId });
        this.statement('UPDATE um_messages SET implied = 0 WHERE id IN (SELECT value FROM json_each(@ids)) AND implied = 1 AND stream_id IS NOT @streamId').run({ ids, streamId: change.streamId });
        if (change.history) {
          // The move history: one row per moved message in a narrow table, recording the place it
          // leaves (one INSERT … SELECT), so the message rows themselves do not grow with moves.
          const { userId, timestamp, targetMessageId } = change.history;
          this.statement(
            `INSERT INTO um_moves (message_id, at, user_id, target_id, prev_stream, stream, prev_topic, topic)
             SELECT id, ?, ?, ?, stream_id, ?, topic, ? FROM um_messages WHERE id IN (SELECT value FROM json_each(?))`,
          ).run(timestamp, userId, targetMessageId, change.streamId, change.topic, ids);
        }
        this.statement('UPDATE um_messages SET stream_id = ?, topic = ?, topic_key = ? WHERE id IN (SELECT value FROM json_each(?))')
          .run(change.streamId, change.topic, change.topic.toLowerCase(), ids);
        if (change.removeRowsOf?.length) {
          const users = JSON.stringify(change.removeRowsOf);
          for (const table of ['um_user_messages', 'um_unread', 'um_inbox']) {
            this.statement(`DELETE FROM ${table} WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id IN (SELECT value FROM json_each(?))`).run(users, ids);
          }
        }
        if (change.addRows?.userIds.length) {
          // Into the inbox, only where the user has no row in any table: the merge relies on no key being in two.
          this.statement(
            `INSERT OR IGNORE INTO um_inbox (message_id, user_id, flags) SELECT m.value, u.value, ? FROM json_each(?) m CROSS JOIN json_each(?) u
             WHERE NOT EXISTS (SELECT 1 FROM um_user_messages x WHERE x.user_id = u.value AND x.message_id = m.value)
               AND NOT EXISTS (SELECT 1 FROM um_unread y WHERE y.user_id = u.value AND y.message_id = m.value) ORDER BY m.value, u.value`,
          ).run(change.addRows.flags, ids, JSON.stringify(change.addRows.userIds));
          this.statement('INSERT OR IGNORE INTO um_inbox_messages (message_id) SELECT value FROM json_each(?)').run(ids);
        }
        return;
      }
      case 'message-edited':
        return this.editMessage(change);
      case 'reactions-counted':
        this.statement('UPDATE um_messages SET reactions = max(0, reactions + ?) WHERE id = ?').run(change.delta, change.messageId);
        return;
      case 'messages-deleted': {
        const ids = JSON.stringify(change.messageIds);
        this.statement('DELETE FROM um_messages WHERE id IN (SELECT value FROM json_each(?))').run(ids);
        this.statement('DELETE FROM um_moves WHERE message_id IN (SELECT value FROM json_each(?))').run(ids);
        this.statement('DELETE FROM um_inbox WHERE message_id IN (SELECT value FROM json_each(?))').run(ids);
        this.statement('DELETE FROM um_inbox_messages WHERE message_id IN (SELECT value FROM json_each(?))').run(ids);
        // The row tables are clustered by user: these are scans, acceptable for a rare, single-message delete.
        this.statement('DELETE FROM um_user_messages WHERE message_id IN (SELECT value FROM json_each(?))').run(ids);
        this.statement('DELETE FROM um_unread WHERE message_id IN (SELECT value FROM json_each(?))').run(ids);
        return;
      }
    }
  }

  /** A content edit: search text and attributes, then the mention flags of the rows that exist (update_user_message_flags). */
  private editMessage(change: Extract<UserMessageChange, { type: 'message-edited' }>): void {
    const attrs = (change.hasLink ? ATTR.link : 0) | (change.hasImage ? ATTR.image : 0) | (change.hasAttachment ? ATTR.attachment : 0);
    this.statement('UPDATE um_messages SET search = ?, attrs = ? WHERE id = ?').run(change.searchText.toLowerCase(), attrs, change.messageId);
    const { mentioned, stream_wildcard_mentioned: stream, topic_wildcard_mentioned: topic } = MESSAGE_FLAG_BITS;
    const clear = mentioned | stream | topic;
    const named = JSON.stringify(change.mentionedUserIds);
    const topicNamed = JSON.stringify(change.topicWildcardMentionedUserIds);
    const previous = change.previouslyMentionedUserIds;
    // Implied rows of the users the edit flags (of every recipient, for a channel wildcard) are written out first.
    const flagged = change.streamWildcardMentioned
      ? null
      : JSON.stringify([...change.mentionedUserIds, ...change.topicWildcardMentionedUserIds, ...(change.alertWords?.userIds ?? [])]);
    this.materializeRecipients(JSON.stringify([change.messageId]), flagged);
    for (const table of ['um_user_messages', 'um_unread', 'um_inbox']) {
      // The row tables are clustered by user: clearing by the users mentioned before is a key lookup
      // each; only a channel wildcard (before or now) needs a pass over every row of the message.
      if (previous === undefined) {
        this.statement(`UPDATE ${table} SET flags = flags & ~${clear} WHERE message_id = ? AND (flags & ${clear}) != 0`).run(change.messageId);
      } else {
        this.statement(`UPDATE ${table} SET flags = flags & ~${mentioned | topic} WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ?`).run(JSON.stringify(previous), change.messageId);
        if (change.previousStreamWildcard !== false) this.statement(`UPDATE ${table} SET flags = flags & ~${stream} WHERE message_id = ? AND (flags & ${stream}) != 0`).run(change.messageId);
      }
      this.statement(`UPDATE ${table} SET flags = flags | ${mentioned} WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ?`).run(named, change.messageId);
      this.statement(`UPDATE ${table} SET flags = flags | ${topic} WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ?`).run(topicNamed, change.messageId);
      if (change.streamWildcardMentioned) this.statement(`UPDATE ${table} SET flags = flags | ${stream} WHERE message_id = ?`).run(change.messageId);
      if (change.alertWords) {
        const alert = MESSAGE_FLAG_BITS.has_alert_word;
        this.statement(`UPDATE ${table} SET flags = flags & ~${alert} WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ?`).run(JSON.stringify(change.alertWords.previousUserIds), change.messageId);
        this.statement(`UPDATE ${table} SET flags = flags | ${alert} WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ?`).run(JSON.stringify(change.alertWords.userIds), change.messageId);
      }
    }
  }

  /**
   * create_historical_user_messages: rows with `read | historical` (so in the main table) for
   * indexed messages the user has no row for in any table (so a replay, or a row that appeared
   * meanwhile, is left alone).
   */
  private createHistorical(userId: number, messageIds: number[]): void {
    this.statement(
      `INSERT OR IGNORE INTO ${tableOf(HISTORICAL_FLAGS)} (user_id, message_id, flags)
       SELECT ?, m.id, ${HISTORICAL_FLAGS} FROM json_each(?) j JOIN um_messages m ON m.id = j.value
       WHERE NOT EXISTS (SELECT 1 FROM um_inbox i WHERE i.message_id = m.id AND i.user_id = ?)
         AND NOT EXISTS (SELECT 1 FROM um_unread u WHERE u.user_id = ? AND u.message_id = m.id) ORDER BY m.id`,
    ).run(userId, JSON.stringify(messageIds), userId, userId);
  }

  /** Indexes the message and appends its rows to the inbox; a message already indexed is left alone (replays). */
  private addMessage(message: IndexedMessage, allRows: { userId: number; flags: number }[]): void {
    const attrs = (message.hasLink ? ATTR.link : 0) | (message.hasImage ? ATTR.image : 0) | (message.hasAttachment ? ATTR.attachment : 0);
    const channel = this.implied && message.streamId !== null ? this.channelMembers(message.streamId) : undefined;
    const implied = channel !== undefined && message.id > channel.lastId;
    const { changes } = this.statement(
      'INSERT OR IGNORE INTO um_messages (id, realm_id, sender_id, stream_id, topic, topic_key, dm_key, attrs, search, implied) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      message.id, message.realmId, message.senderId, message.streamId, message.topic, message.topic?.toLowerCase() ?? null,
      message.dmKey, attrs, message.searchText.toLowerCase(), implied ? 1 : 0,
    );
    if (changes === 0) return;
    const rows = implied ? this.moveIntervals(message.streamId!, message.id, channel, allRows) : allRows;
    if (rows.length === 0) return;
    if (this.direct && Number.isSafeInteger(message.id * FLAG_SPACE + FLAG_SPACE) && rows.every((r) => r.flags >= 0 && r.flags < FLAG_SPACE)) {
      for (const row of rows) {
        const packed = message.id * FLAG_SPACE + row.flags;
        const held = this.pending.get(row.userId);
        if (held) held.push(packed);
        else this.pending.set(row.userId, [packed]);
      }
      return;
    }
    if (this.direct) {
      for (const [flags, userIds] of groupByFlags(rows)) {
        this.statement(`INSERT OR IGNORE INTO ${tableOf(flags)} (user_id, message_id, flags) SELECT value, ?, ? FROM json_each(?) ORDER BY value`).run(message.id, flags, JSON.stringify(userIds));
      }
      return;
    }
    // Rows in key order (appends at the end of the inbox tree): the ids sorted here, where they
    // nearly always arrive sorted already, rather than by an ORDER BY that makes SQLite sort them
    // again (a third of the statement, issue #23). json_each yields an array in its order.
    const insert = this.statement('INSERT OR IGNORE INTO um_inbox (message_id, user_id, flags) SELECT ?, value, ? FROM json_each(?)');
    for (const [flags, userIds] of groupByFlags(rows)) this.inboxAdded += insert.run(message.id, flags, JSON.stringify(ascending(userIds))).changes;
    this.statement('INSERT OR IGNORE INTO um_inbox_messages (message_id) VALUES (?)').run(message.id);
  }

  /** The channel's open members and newest implied message (cached; see `channels`). */
  private channelMembers(streamId: number): ChannelMembers {
    let channel = this.channels.get(streamId);
    if (channel === undefined) {
      const open = this.statement('SELECT user_id FROM um_members WHERE stream_id = ? AND to_id IS NULL').all(streamId) as { user_id: number }[];
      // The newest implied message, or a bound an interval took from one since deleted or moved
      // away: no implied message is above it, and every interval bound is at or below it.
      const { lastId } = this.statement(
        `SELECT max(coalesce((SELECT max(id) FROM um_messages WHERE stream_id = @s AND implied = 1), 0),
                    coalesce((SELECT max(from_id) FROM um_members WHERE stream_id = @s), 0),
                    coalesce((SELECT max(to_id) FROM um_members WHERE stream_id = @s), 0)) AS lastId`,
      ).get({ s: streamId }) as { lastId: number };
      channel = { open: new Set(open.map((r) => r.user_id)), lastId };
      this.channels.set(streamId, channel);
    }
    return channel;
  }

  /**
   * A new implied message: its recipients with no flags become (or stay) open members of the
   * channel, members it does not reach leave at it, and only the rows with flags (the sender's
   * read row, mentions, …) are returned, to be written. A recipient with flags who is not a
   * member yet stays out of the intervals until a message reaches it without flags.
   */
  private moveIntervals(streamId: number, messageId: number, channel: ChannelMembers, rows: UserMessageRow[]): UserMessageRow[] {
    const explicit: UserMessageRow[] = [];
    /** Open members the message reaches (a send's rows name each user once). */
    let reached = 0;
    for (const row of rows) {
      if (row.flags !== 0) explicit.push(row);
      if (channel.open.has(row.userId)) reached++;
      else if (row.flags === 0) {
        this.statement('INSERT INTO um_members (user_id, stream_id, from_id, to_id) VALUES (?, ?, ?, NULL)').run(row.userId, streamId, messageId);
        channel.open.add(row.userId);
        reached++;
      }
    }
    // Nearly always every open member is reached; otherwise those it does not reach leave.
    if (reached < channel.open.size) {
      const recipients = new Set(rows.map((r) => r.userId));
      for (const userId of channel.open) {
        if (recipients.has(userId)) continue;
        this.statement('UPDATE um_members SET to_id = ? WHERE user_id = ? AND stream_id = ? AND to_id IS NULL').run(messageId, userId, streamId);
        channel.open.delete(userId);
      }
    }
    channel.lastId = messageId;
    return explicit;
  }

  /** The user's membership intervals (of one channel, or all) with the watermarks of their channels. */
  private memberIntervals(userId: number, streamIds?: number[]): MemberInterval[] {
    const rows = this.statement(
      `SELECT i.stream_id AS streamId, i.from_id AS "from", i.to_id AS "to", coalesce(w.read_to, 0) AS readTo
       FROM um_members i LEFT JOIN um_read_to w ON w.user_id = i.user_id AND w.stream_id = i.stream_id WHERE i.user_id = ?`,
    ).all(userId) as MemberInterval[];
    return streamIds === undefined ? rows : rows.filter((r) => streamIds.includes(r.streamId));
  }

  /** The user's implied rows as ranges of one flags value each, clamped to [minId, maxId]. */
  private impliedRangesOf(userId: number, streamIds?: number[], minId = 0, maxId = MAX_ID): ImpliedRange[] {
    if (streamIds !== undefined && streamIds.length === 0) return [];
    return impliedRanges(this.memberIntervals(userId, streamIds))
      .map((r) => ({ ...r, lo: Math.max(r.lo, minId), hi: Math.min(r.hi, maxId) }))
      .filter((r) => r.lo <= r.hi);
  }

  /** The rows of one implied range (alias `m`, the user as @uid) not overridden by an explicit row, and the range's named parameters. */
  private readonly rangeRows = `um_messages m WHERE m.stream_id = @s AND m.id >= @lo AND m.id <= @hi AND m.implied = 1 AND ${noExplicitRow('@uid')}`;
  private static rangeParams = (userId: number, range: ImpliedRange) => ({ uid: userId, s: range.streamId, lo: range.lo, hi: range.hi });

  /**
   * The implied side of a flag change. Marking read a whole channel, or everything (up to an id),
   * moves the user's watermarks. Any other change writes out the implied rows it would change,
   * with their new flags (later steps leave them alone, as they are already changed); marking
   * read by ids then moves the watermarks past them (the returned `true`, see advanceWatermarks).
   */
  private impliedFlagChange(change: Extract<UserMessageChange, { type: 'flags-changed' }>): boolean {
    const { userId, selector, op, mask } = change;
    if (selector.dmKey !== undefined) return false;
    const whole = selector.messageIds === undefined && selector.minId === undefined && selector.topic === undefined && !selector.createHistorical?.length;
    if (op === 'add' && mask === READ && whole) {
      // Up to the channel's newest implied message (a later one is above it, so unread).
      this.statement(
        `INSERT INTO um_read_to (user_id, stream_id, read_to)
         SELECT @uid, s.stream_id, min(coalesce((SELECT max(m.id) FROM um_messages m WHERE m.stream_id = s.stream_id AND m.implied = 1), 0), @maxId)
         FROM (SELECT DISTINCT stream_id FROM um_members WHERE user_id = @uid AND (@streamId IS NULL OR stream_id = @streamId)) s WHERE true
         ON CONFLICT (user_id, stream_id) DO UPDATE SET read_to = max(read_to, excluded.read_to)`,
      ).run({ uid: userId, maxId: selector.maxId ?? MAX_ID, streamId: selector.streamId ?? null });
      return false;
    }
    const where = impliedSelectorWhere(selector);
    // createHistorical's ids: rows the user may already have implicitly are written out as they
    // are (createHistorical then finds them and leaves them alone; the change applies below).
    if (selector.createHistorical?.length) this.materializeRecipients(JSON.stringify(selector.createHistorical), JSON.stringify([userId]));
    if (selector.messageIds !== undefined) {
      // By ids: each implied row of them the change changes, written with its new flags.
      const ids = JSON.stringify(selector.messageIds);
      for (const flags of [READ, 0]) {
        const next = changedFlags(flags, op, mask);
        if (next === flags) continue;
        this.statement(
          `INSERT OR IGNORE INTO ${tableOf(next)} (user_id, message_id, flags)
           SELECT @uid, m.id, @next FROM json_each(@ids) j JOIN um_messages m ON m.id = j.value
           WHERE m.implied = 1 AND ${memberOf('@uid')} AND ${impliedFlags('@uid')} = @flags AND ${noExplicitRow('@uid')} AND ${where.sql} ORDER BY m.id`,
        ).run({ ...where.params, uid: userId, ids, flags, next });
      }
      return op === 'add' && (mask & READ) !== 0;
    }
    const streamIds = selector.streamId === undefined ? undefined : [selector.streamId];
    const inRange = impliedSelectorWhere(selector, { idBounds: false });
    for (const range of this.impliedRangesOf(userId, streamIds, selector.minId, selector.maxId)) {
      const next = changedFlags(range.flags, op, mask);
      if (next === range.flags) continue;
      this.statement(`INSERT OR IGNORE INTO ${tableOf(next)} (user_id, message_id, flags) SELECT @uid, m.id, @next FROM ${this.rangeRows} AND ${inRange.sql} ORDER BY m.id`)
        .run({ ...inRange.params, ...SqliteUserMessageStore.rangeParams(userId, range), next });
    }
    return false;
  }

  /**
   * After marking read by ids: in each channel of an implied message marked, the watermark moves
   * up to the newest one marked, so that the rows a user reads one by one do not pile up as
   * explicit rows and unread queries keep costing by what is unread. Implied rows below the new
   * watermark that are still unread get explicit unread rows first, and explicit rows that now
   * say what the watermark says (read, nothing else) go.
   */
  private advanceWatermarks(userId: number, selector: FlagSelector): void {
    if (!selector.messageIds?.length) return;
    const where = impliedSelectorWhere(selector);
    const marked = this.statement(
      `SELECT m.stream_id AS streamId, max(m.id) AS upTo, ${readTo('@uid')} AS readTo FROM json_each(@ids) j JOIN um_messages m ON m.id = j.value
       WHERE m.implied = 1 AND ${memberOf('@uid')} AND ${where.sql} GROUP BY m.stream_id`,
    ).all({ ...where.params, uid: userId, ids: JSON.stringify(selector.messageIds) }) as { streamId: number; upTo: number; readTo: number }[];
    for (const { streamId, upTo, readTo: from } of marked) {
      if (upTo <= from) continue;
      const params = { uid: userId, s: streamId, from, upTo };
      this.statement(
        `INSERT OR IGNORE INTO um_unread (user_id, message_id, flags) SELECT @uid, m.id, 0 FROM um_messages m
         WHERE m.stream_id = @s AND m.id > @from AND m.id <= @upTo AND m.implied = 1 AND ${memberOf('@uid')} AND ${noExplicitRow('@uid')} ORDER BY m.id`,
      ).run(params);
      this.statement('INSERT INTO um_read_to (user_id, stream_id, read_to) VALUES (@uid, @s, @upTo) ON CONFLICT (user_id, stream_id) DO UPDATE SET read_to = excluded.read_to').run(params);
      this.statement(
        `DELETE FROM um_user_messages WHERE user_id = @uid AND message_id > @from AND message_id <= @upTo AND flags = ${READ}
           AND message_id IN (SELECT m.id FROM um_messages m WHERE m.stream_id = @s AND m.id > @from AND m.id <= @upTo AND m.implied = 1 AND ${memberOf('@uid')})`,
      ).run(params);
    }
  }

  /**
   * Writes out the implied rows of these messages (JSON ids) for these users (JSON ids; null:
   * every recipient), with their flags, where the user has no explicit row: before a change that
   * their being implied cannot express (a move to another channel, a mention added by an edit).
   */
  private materializeRecipients(messageIds: string, userIds: string | null, condition = '1', params: Record<string, unknown> = {}): void {
    for (const [flags, test] of [[READ, '<='], [0, '>']] as const) {
      this.statement(
        `INSERT OR IGNORE INTO ${tableOf(flags)} (user_id, message_id, flags)
         SELECT i.user_id, m.id, ${flags} FROM json_each(@ids) j JOIN um_messages m ON m.id = j.value
         JOIN um_members i ON i.stream_id = m.stream_id AND i.from_id <= m.id AND (i.to_id IS NULL OR m.id < i.to_id)
         WHERE m.implied = 1 AND ${condition}${userIds === null ? '' : ' AND i.user_id IN (SELECT value FROM json_each(@users))'}
           AND m.id ${test} ${readTo('i.user_id')} AND ${noExplicitRow('i.user_id')} ORDER BY i.user_id, m.id`,
      ).run({ ...params, ids: messageIds, ...(userIds === null ? {} : { users: userIds }) });
    }
  }

  private async maybeCompact(): Promise<void> {
    if (this.compaction || this.closed) return this.options.compactSynchronously ? this.compaction : undefined;
    if (!this.inboxOver(this.compactAt - 1)) return;
    const running = this.compact();
    if (this.options.compactSynchronously) await running;
  }

  /**
   * Merges the inbox into the main table, in steps of about `mergeStepRows` rows (one transaction
   * each, so readers always see every row in exactly one level), up to the newest message in the
   * inbox when it starts. Merges never overlap; a merge interrupted by close() resumes with the
   * next one. A failed step is rolled back whole and the rows stay in the inbox (still read from
   * there) until a later merge.
   */
  compact(): Promise<void> {
    const next = (this.compaction ?? Promise.resolve())
      .then(() => this.merge())
      .catch((error: unknown) => {
        this.lastError = error as Error;
      })
      .finally(() => {
        if (this.compaction === next) this.compaction = undefined;
      });
    this.compaction = next;
    return next;
  }

  private async merge(): Promise<void> {
    const upTo = this.inboxNewest();
    if (upTo === null) return;
    while (!this.closed) {
      if (this.mergeStep(upTo, this.stepRows).done) return;
      if (!this.options.compactSynchronously) await new Promise((r) => setImmediate(r));
    }
  }

  /** The newest message with inbox rows or listed in the inbox, or null when it is empty. */
  private inboxNewest(): number | null {
    return (this.statement('SELECT max(m) AS m FROM (SELECT max(message_id) AS m FROM um_inbox UNION ALL SELECT max(message_id) FROM um_inbox_messages)').get() as { m: number | null }).m;
  }

  /** Merge steps inside the caller's turn, until the inbox is back within its bound or about `rows` rows moved. */
  private mergeSteps(rows: number): void {
    try {
      const upTo = this.inboxNewest();
      if (upTo === null) return;
      for (let budget = rows; budget > 0 && this.inboxOver(this.maxInboxMessages); ) {
        const step = this.mergeStep(upTo, Math.min(this.stepRows, budget));
        if (step.done) return;
        budget -= Math.max(1, step.moved);
      }
    } catch (error) {
      // The batch is committed: a failed step (rolled back whole) is reported by health() and
      // retried by a later apply or merge, not by replaying the batch.
      this.lastError = error as Error;
    }
  }

  /**
   * One step, one transaction: the inbox's oldest messages, up to the one holding its `rows`-th
   * row (whole messages, never past `upTo`), go into the main table sorted by user, and leave the
   * inbox and its list. The inbox is clustered by message, so the step reads a range of it: its
   * cost is linear in the rows it moves.
   */
  private mergeStep(upTo: number, rows: number): { moved: number; done: boolean } {
    return this.db
      .transaction(() => {
        const edge = this.statement('SELECT message_id AS m FROM um_inbox ORDER BY message_id, user_id LIMIT 1 OFFSET ?').get(Math.max(0, rows - 1)) as { m: number } | undefined;
        const last = edge === undefined ? upTo : Math.min(edge.m, upTo);
        // Unread rows to um_unread, read rows to the main table. OR IGNORE, not OR REPLACE: no
        // (user, message) key is ever in two tables (see the class comment), so nothing is
        // ignored; and an INSERT … SELECT that can fail half-way (ABORT, REPLACE) writes a
        // statement journal as it goes, which was a sixth of the step (issue #23).
        let moved = 0;
        for (const table of ROW_TABLES) {
          const test = flagTest('flags', READ, table === 'um_unread' ? 'none' : 'any');
          moved += this.statement(`INSERT OR IGNORE INTO ${table} (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox WHERE message_id <= ? AND ${test} ORDER BY user_id, message_id`)
            .run(last).changes;
        }
        // The whole inbox moved (a live merge nearly always): emptied without visiting its rows.
        const rest = this.statement('SELECT EXISTS (SELECT 1 FROM um_inbox WHERE message_id > ?) OR EXISTS (SELECT 1 FROM um_inbox_messages WHERE message_id > ?) AS r').get(last, last) as { r: number };
        if (rest.r) {
          this.statement('DELETE FROM um_inbox WHERE message_id <= ?').run(last);
          this.statement('DELETE FROM um_inbox_messages WHERE message_id <= ?').run(last);
        } else {
          this.statement('DELETE FROM um_inbox').run();
          this.statement('DELETE FROM um_inbox_messages').run();
        }
        return { moved, done: last === upTo };
      })
      .immediate();
  }

  /** Stops merging (the connection belongs to whoever opened it); waits for a step under way. */
  async close(): Promise<void> {
    this.closed = true;
    await this.compaction;
  }

  /**
   * Runs reads of both levels in one read transaction: another process (the split layout's worker)
   * may commit a merge step between two statements, which would otherwise miss the rows it moved.
   */
  private snapshot<T>(read: () => T): T {
    return this.db.inTransaction ? read() : this.db.transaction(read)();
  }

  private readCheckpoint(name: string): GlobalPosition | undefined {
    const row = this.statement('SELECT position FROM checkpoints WHERE name = ?').get(name) as { position: string } | undefined;
    return row ? decodePosition(row.position) : undefined;
  }

  async getCheckpoint(name: string): Promise<GlobalPosition | undefined> {
    return this.readCheckpoint(name);
  }

  async reset(checkpointName: string): Promise<void> {
    await this.compaction;
    this.lastError = undefined;
    this.db.transaction(() => {
      this.db.exec(
        'DELETE FROM um_user_messages; DELETE FROM um_unread; DELETE FROM um_inbox; DELETE FROM um_inbox_messages; DELETE FROM um_moves; DELETE FROM um_members; DELETE FROM um_read_to;',
      );
      deleteAllMessages(this.db);
      this.channels.clear();
      this.statement('DELETE FROM checkpoints WHERE name = ?').run(checkpointName);
    })();
  }

  async findMessages(query: MessageQuery, range: MessageRange): Promise<MessageMatch[]> {
    if (range.limit <= 0) return [];
    const search = query.terms.find((t): t is Extract<NarrowTerm, { kind: 'search' }> => t.kind === 'search' && !t.negated);
    if (search) {
      this.ensureSearchIndex();
      return this.snapshot(() => this.findBySearch(query, range, search));
    }
    return this.findWithoutSearch(query, range);
  }

  /** A narrow without a (non-negated) search term: read through the user's rows or the channel's messages. */
  private findWithoutSearch(query: MessageQuery, range: MessageRange): MessageMatch[] {
    if (range.limit <= 0) return [];
    const where = narrowWhere(query.terms, query.scope);
    const older = range.direction === 'older';
    const bound = older ? '<=' : '>=';
    const order = older ? 'DESC' : 'ASC';
    if (query.scope === 'history') {
      const flags = `COALESCE(a.flags, c.flags, b.flags, ${impliedFlagsOrNull('@uid')})`;
      const sql = `SELECT m.id AS id, ${flags} AS flags FROM um_messages m
        LEFT JOIN um_user_messages a ON a.user_id = @uid AND a.message_id = m.id
        LEFT JOIN um_unread c ON c.user_id = @uid AND c.message_id = m.id
        LEFT JOIN um_inbox b ON b.message_id = m.id AND b.user_id = @uid
        WHERE m.realm_id = ? AND m.id ${bound} ? AND ${where.sql.replace(/COALESCE\(um\.flags, 0\)/g, `COALESCE(${flags}, 0)`)}
        ORDER BY m.id ${order} LIMIT ?`;
      return this.statement(sql).all({ uid: query.userId }, query.realmId, range.fromId, ...where.params, range.limit) as MessageMatch[];
    }
    const join = query.terms.some(needsMessage) ? ' JOIN um_messages m ON m.id = um.message_id' : '';
    const index = partialIndexFor(query.terms);
    const tables = rowTablesFor(query.terms);
    const byRange = (a: MessageMatch, b: MessageMatch) => (older ? b.id - a.id : a.id - b.id);
    /**
     * One arm's matches with ids in [lo, hi] (null: unbounded, and not written, which keeps the
     * plans of one bound: the message found by its key), in the range's order, at most `limit`.
     */
    const armRows = (arm: Arm, lo: number | null, hi: number | null, limit: number) => {
      const bounds = `${lo === null ? '' : ' AND um.message_id >= ?'}${hi === null ? '' : ' AND um.message_id <= ?'}`;
      return this.statement(`SELECT um.message_id AS id, um.flags AS flags FROM ${arm.from(join, index)}${bounds} AND ${where.sql} ORDER BY um.message_id ${order} LIMIT ?`)
        .all(query.userId, ...(lo === null ? [] : [lo]), ...(hi === null ? [] : [hi]), ...where.params, limit) as MessageMatch[];
    };
    /**
     * The implied rows of one range (see sqlite-implied-recipients.ts): the narrow's conditions with
     * the range's flags as a constant, read through the channel's messages in id order.
     */
    const impliedWhere = (flags: number) => where.sql.replace(/um\.flags/g, String(flags)).replace(/um\.message_id/g, 'm.id');
    const impliedRows = (implied: ImpliedRange, lo: number | null, hi: number | null, limit: number) => {
      // The window's bounds and the range's as one pair: given both, SQLite may seek by the looser ones and filter.
      const bounded = { ...implied, lo: Math.max(implied.lo, lo ?? 0), hi: Math.min(implied.hi, hi ?? MAX_ID) };
      if (bounded.lo > bounded.hi) return [];
      return this.statement(`SELECT m.id AS id, ${implied.flags} AS flags FROM ${this.rangeRows} AND ${impliedWhere(implied.flags)} ORDER BY m.id ${order} LIMIT ?`)
        .all(SqliteUserMessageStore.rangeParams(query.userId, bounded), ...where.params, limit) as MessageMatch[];
    };
    const [lo, hi] = older ? [null, range.fromId] : [range.fromId, null];
    return this.snapshot(() => {
      const rows = armRows(INBOX, lo, hi, range.limit);
      // Implied rows have no flag but read: a narrow of starred, mentioned or direct messages (a partial index) has none.
      const implied = index === undefined ? this.impliedRangesOf(query.userId, narrowChannels(query.terms)).filter((r) => flagTermsAllow(query.terms, r.flags)) : [];
      const arms: ((lo: number | null, hi: number | null, limit: number) => MessageMatch[])[] = [
        ...tables.map((table) => (a: number | null, b: number | null, limit: number) => armRows(ROW_ARMS[table], a, b, limit)),
        ...implied.map((r) => (a: number | null, b: number | null, limit: number) => impliedRows(r, a, b, limit)),
      ];
      const byKey = query.terms.some((t) => !t.negated && (t.kind === 'id' || t.kind === 'ids'));
      if (arms.length < 2 || index !== undefined || byKey || query.terms.length === 0) {
        // One row table, or both read through a partial index (rows of the narrow's kind only) or
        // by key (listed ids), or every row a match: each arm stops after `limit` matches or rows
        // of its kind.
        for (const arm of arms) rows.push(...arm(lo, hi, range.limit));
        return rows.sort(byRange).slice(0, range.limit);
      }
      // Both row tables read in message order with a filter: alone, an arm whose rows hold few
      // matches would read all of the user's rows in it (one whose matches are all unread: every
      // read row), where one table read only until `limit` matches. So they go through the range
      // in windows of message ids, each twice the last, until `limit` matches are found: about the
      // rows one table would read, in both together.
      const found: MessageMatch[] = [];
      const span = this.rowSpan(query.userId, implied);
      if (span === undefined) return rows;
      const end = older ? span.min : span.max;
      let window = WINDOW_IDS;
      for (let from = older ? Math.min(range.fromId, span.max) : Math.max(range.fromId, span.min); found.length < range.limit && (older ? from >= end : from <= end); window *= 2) {
        const [a, b] = older ? [Math.max(end, from - window + 1), from] : [from, Math.min(end, from + window - 1)];
        const inWindow: MessageMatch[] = [];
        for (const arm of arms) inWindow.push(...arm(a, b, range.limit - found.length));
        found.push(...inWindow.sort(byRange));
        from = older ? a - 1 : b + 1;
      }
      return [...rows, ...found.slice(0, range.limit)].sort(byRange).slice(0, range.limit);
    });
  }

  /** Whether the search index is known to exist (see prepare). */
  private searchIndexed = false;

  /** Creates (and fills) the search index if it does not exist yet. */
  private ensureSearchIndex(): void {
    if (this.searchIndexed) return;
    this.db.transaction(() => prepareSearchIndex(this.db)).immediate();
    this.searchIndexed = true;
  }

  /**
   * A narrow with a search. Driven by the search index alone, a search costs by the word's matches
   * read until `limit` pass the narrow and the access rule: a rare word by its few matches, a
   * common one by a page or so, but a searcher who may read few of a common word's matches (a
   * guest in one small channel) would read all of them (issue 37's worst case: seconds at
   * 1,000,000 messages). So two readers take turns, each with twice the budget of its last turn:
   * the index's matches, newest first, tested against the narrow and the access rule
   * (searchByIndex), and the messages the narrow lets the user read, newest first (the plan of a
   * narrow without the search), tested against the search words in memory. Each turn covers the
   * ids from the anchor to where that reader has got; everything found there is a match and every
   * match there is found. The search ends when `limit` matches are found or either reader has read
   * all it has: at most about twice the work of whichever reader alone would finish first.
   */
  private findBySearch(query: MessageQuery, range: MessageRange, search: Extract<NarrowTerm, { kind: 'search' }>): MessageMatch[] {
    const others = query.terms.filter((t) => t !== search);
    // A second search term (rare) or an empty one: the index alone, as one statement.
    if ((search.words.length === 0 && search.phrases.length === 0) || others.some((t) => t.kind === 'search')) {
      return this.searchByIndex(query, range, search, null).matches;
    }
    const older = range.direction === 'older';
    const matches = new Map<number, MessageMatch>();
    const textMatches = searchTextMatcher(search.words, search.phrases);
    const messageTexts = this.statement('SELECT m.id AS id, m.topic AS topic, m.search AS search FROM um_messages m WHERE m.id IN (SELECT value FROM json_each(?))');
    const next = (id: number) => (older ? id - 1 : id + 1);
    // Each reader's next id (inclusive) and turn size; a reader that read less than its turn is done.
    const turn = this.options.searchTurnRows ?? Math.max(range.limit, 50);
    // The index's candidates are the cheaper to test (~0.5 µs each that fails on the message
    // alone, ~3 µs with the access rule), and a turn ends early once a page passes: forty times
    // as many, so that a search in a channel of a hundredth of the messages takes a turn or two.
    const index = { from: range.fromId, budget: 40 * turn };
    const rows = { from: range.fromId, budget: turn };
    for (;;) {
      const byIndex = this.searchByIndex(query, { ...range, fromId: index.from }, search, index.budget);
      for (const m of byIndex.matches) matches.set(m.id, m);
      if (byIndex.last === undefined || matches.size >= range.limit) break;
      index.from = next(byIndex.last);
      index.budget *= 2;
      const readable = this.findWithoutSearch({ ...query, terms: others }, { ...range, fromId: rows.from, limit: rows.budget });
      if (readable.length > 0) {
        const flags = new Map(readable.map((m) => [m.id, m.flags]));
        const texts = messageTexts.all(JSON.stringify(readable.map((m) => m.id))) as { id: number; topic: string | null; search: string }[];
        for (const t of texts) if (textMatches(t.topic, t.search)) matches.set(t.id, { id: t.id, flags: flags.get(t.id)! });
      }
      if (readable.length < rows.budget || matches.size >= range.limit) break;
      rows.from = next(readable[readable.length - 1].id);
      rows.budget *= 2;
    }
    return [...matches.values()].sort((a, b) => (older ? b.id - a.id : a.id - b.id)).slice(0, range.limit);
  }

  /**
   * The search driven by the index: its matches in id order from `range.fromId` (FTS5 reads its
   * lists in rowid order, either way), each joined to the message and the user's row (explicit,
   * or implied by a membership interval), the narrow's other conditions tested on them, until
   * `range.limit` pass. Scope "user" keeps only messages the user has a row for (Zulip's
   * UserMessage join), "history" every message of the organization the narrow's channel lets them
   * read. With `candidates`, at most that many of the index's matches are read (a subquery read as
   * it goes, in its order: nothing is sorted), and when fewer than `limit` pass, `last` is the
   * last of them read (undefined: the index had no more).
   */
  private searchByIndex(
    query: MessageQuery, range: MessageRange, search: Extract<NarrowTerm, { kind: 'search' }>, candidates: number | null,
  ): { matches: MessageMatch[]; last: number | undefined } {
    const older = range.direction === 'older';
    const flags = `COALESCE(a.flags, c.flags, b.flags, ${impliedFlagsOrNull('@uid')})`;
    const where = narrowWhere(
      query.terms.filter((t) => t !== search),
      'history',
    );
    const match = searchMatch(search.words, search.phrases);
    const order = older ? 'DESC' : 'ASC';
    const bound = older ? '<=' : '>=';
    // Without a budget the index is the first table, read as the join goes; with one, a subquery
    // of at most that many of its matches, read the same way.
    const [from, matchWhere, sourceParams] =
      candidates === null
        ? ['um_search s', `um_search MATCH ? AND s.rowid ${bound} ? AND `, [match, range.fromId]]
        : [`(SELECT rowid FROM um_search WHERE um_search MATCH ? AND rowid ${bound} ? ORDER BY rowid ${order} LIMIT ?) s`, '', [match, range.fromId, candidates]];
    const sql = `SELECT m.id AS id, ${flags} AS flags FROM ${from} CROSS JOIN um_messages m ON m.id = s.rowid
      LEFT JOIN um_user_messages a ON a.user_id = @uid AND a.message_id = m.id
      LEFT JOIN um_unread c ON c.user_id = @uid AND c.message_id = m.id
      LEFT JOIN um_inbox b ON b.message_id = m.id AND b.user_id = @uid
      WHERE ${matchWhere}m.realm_id = ?${query.scope === 'user' ? ` AND ${flags} IS NOT NULL` : ''}
        AND ${where.sql.replace(/COALESCE\(um\.flags, 0\)/g, `COALESCE(${flags}, 0)`)}
      ORDER BY s.rowid ${order} LIMIT ?`;
    const matches = this.statement(sql).all({ uid: query.userId }, ...sourceParams, query.realmId, ...where.params, range.limit) as MessageMatch[];
    if (candidates === null || matches.length >= range.limit) return { matches, last: undefined };
    // Fewer passed: every candidate of the budget was read; the last of them (a read of the
    // index's list alone) is where the next turn goes on from.
    const last = this.statement(`SELECT rowid FROM um_search WHERE um_search MATCH ? AND rowid ${bound} ? ORDER BY rowid ${order} LIMIT 1 OFFSET ?`)
      .pluck()
      .get(match, range.fromId, candidates - 1) as number | undefined;
    return { matches, last };
  }

  /** The oldest and newest message ids of the user's rows in the row tables (two key seeks each) and implied ranges. */
  private rowSpan(userId: number, implied: ImpliedRange[]): { min: number; max: number } | undefined {
    let span = this.rowTablesSpan(userId);
    // Each range's oldest and newest message (two seeks in ix_um_messages_stream), so that windows
    // start at the user's newest message, not at the organization's.
    for (const range of implied) {
      const ends = this.statement(
        `SELECT (SELECT min(id) FROM um_messages WHERE stream_id = @s AND id >= @lo AND id <= @hi) AS min,
                (SELECT max(id) FROM um_messages WHERE stream_id = @s AND id >= @lo AND id <= @hi) AS max`,
      )
        .get({ s: range.streamId, lo: range.lo, hi: range.hi }) as { min: number | null; max: number | null };
      if (ends.min === null || ends.max === null) continue;
      span = { min: Math.min(span?.min ?? Infinity, ends.min), max: Math.max(span?.max ?? -Infinity, ends.max) };
    }
    return span;
  }

  private rowTablesSpan(userId: number): { min: number; max: number } | undefined {
    const span = this.statement(
      `SELECT (SELECT min(message_id) FROM um_user_messages WHERE user_id = ?) AS a, (SELECT min(message_id) FROM um_unread WHERE user_id = ?) AS b,
              (SELECT max(message_id) FROM um_user_messages WHERE user_id = ?) AS c, (SELECT max(message_id) FROM um_unread WHERE user_id = ?) AS d`,
    ).get(userId, userId, userId, userId) as { a: number | null; b: number | null; c: number | null; d: number | null };
    if (span.c === null && span.d === null) return undefined;
    return { min: Math.min(span.a ?? Infinity, span.b ?? Infinity), max: Math.max(span.c ?? -Infinity, span.d ?? -Infinity) };
  }

  async flagsFor(userId: number, messageIds: number[]): Promise<Map<number, number>> {
    if (messageIds.length === 0) return new Map();
    const ids = JSON.stringify(messageIds);
    const rows = this.snapshot(() => [
      // Implied rows first: an explicit row of the same message wins.
      ...(this.statement(`SELECT m.id AS id, ${impliedFlags('@uid')} AS flags FROM um_messages m WHERE m.id IN (SELECT value FROM json_each(@ids)) AND m.implied = 1 AND ${memberOf('@uid')}`)
        .all({ uid: userId, ids }) as { id: number; flags: number }[]),
      ...['um_user_messages', 'um_unread', 'um_inbox'].flatMap(
        (table) => this.statement(`SELECT message_id AS id, flags FROM ${table} WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))`).all(userId, ids) as { id: number; flags: number }[],
      ),
    ]);
    return new Map(rows.map((r) => [r.id, r.flags]));
  }

  async flagsForUsers(userIds: number[], messageIds: number[]): Promise<Map<number, Map<number, number>>> {
    if (userIds.length === 0 || messageIds.length === 0) return new Map();
    const params = { users: JSON.stringify(userIds), ids: JSON.stringify(messageIds) };
    const rows = this.snapshot(() => [
      // Implied rows first: an explicit row of the same user and message wins.
      ...(this.statement(
        `SELECT i.user_id AS userId, m.id AS id, ${impliedFlags('i.user_id')} AS flags
         FROM um_messages m JOIN um_members i ON i.stream_id = m.stream_id AND i.from_id <= m.id AND (i.to_id IS NULL OR m.id < i.to_id)
         WHERE m.id IN (SELECT value FROM json_each(@ids)) AND m.implied = 1 AND i.user_id IN (SELECT value FROM json_each(@users))`,
      ).all(params) as { userId: number; id: number; flags: number }[]),
      // Key lookups: the row tables by (user, message), the inbox by (message, user).
      ...(['um_user_messages', 'um_unread'] as const).flatMap(
        (table) =>
          this.statement(`SELECT user_id AS userId, message_id AS id, flags FROM ${table} WHERE user_id IN (SELECT value FROM json_each(@users)) AND message_id IN (SELECT value FROM json_each(@ids))`)
            .all(params) as { userId: number; id: number; flags: number }[],
      ),
      ...(this.statement('SELECT user_id AS userId, message_id AS id, flags FROM um_inbox WHERE message_id IN (SELECT value FROM json_each(@ids)) AND user_id IN (SELECT value FROM json_each(@users))')
        .all(params) as { userId: number; id: number; flags: number }[]),
    ]);
    const byUser = new Map<number, Map<number, number>>();
    for (const r of rows) {
      const flags = byUser.get(r.userId);
      if (flags) flags.set(r.id, r.flags);
      else byUser.set(r.userId, new Map([[r.id, r.flags]]));
    }
    return byUser;
  }

  async usersWithFlags(messageId: number, userIds: number[], mask: number): Promise<number[]> {
    if (userIds.length === 0) return [];
    const ids = JSON.stringify(userIds);
    const test = `(flags & ${mask}) = ${mask}`;
    const rows = this.snapshot(() => [
      ...this.statement(`SELECT user_id FROM um_user_messages WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ? AND ${test}`).all(ids, messageId),
      // Unread rows hold no read bit: a mask with it finds none there.
      ...((mask & READ) === 0 ? this.statement(`SELECT user_id FROM um_unread WHERE user_id IN (SELECT value FROM json_each(?)) AND message_id = ? AND ${test}`).all(ids, messageId) : []),
      ...this.statement(`SELECT user_id FROM um_inbox WHERE message_id = ? AND user_id IN (SELECT value FROM json_each(?)) AND ${test}`).all(messageId, ids),
      // Implied rows have the read bit or nothing: a mask of anything else finds none.
      ...((mask & ~READ) === 0
        ? this.statement(
            `SELECT i.user_id FROM um_messages m JOIN um_members i ON i.stream_id = m.stream_id AND i.from_id <= m.id AND (i.to_id IS NULL OR m.id < i.to_id)
             WHERE m.id = @mid AND m.implied = 1 AND i.user_id IN (SELECT value FROM json_each(@users)) AND (${impliedFlags('i.user_id')} & @mask) = @mask
               AND ${noExplicitRow('i.user_id')}`,
          ).all({ mid: messageId, users: ids, mask })
        : []),
    ]);
    return [...new Set((rows as { user_id: number }[]).map((r) => r.user_id))].sort((a, b) => a - b);
  }

  async countFlagChanges(userId: number, selector: FlagSelector, op: 'add' | 'remove', mask: number): Promise<number> {
    return this.snapshot(() => {
      let total = 0;
      for (const { table, test } of [...rowChanges(op, mask), { table: 'um_inbox' as const, test: changeTest(op, mask) }]) {
        const { sql, params } = selectorWhere(selector, table);
        const target = table === 'um_inbox' ? `um_inbox WHERE user_id = ?${inboxProbe(selector)}` : `${rowTableFor(table, test)} WHERE user_id = ?`;
        total += (this.statement(`SELECT count(*) AS n FROM ${target} AND ${test} AND ${sql}`).get(userId, ...params) as { n: number }).n;
      }
      return total + this.countImpliedChanges(userId, selector, op, mask);
    });
  }

  /** How many implied rows a flag change would change (its implied side, as impliedFlagChange selects them). */
  private countImpliedChanges(userId: number, selector: FlagSelector, op: 'add' | 'remove', mask: number): number {
    if (selector.dmKey !== undefined) return 0;
    const where = impliedSelectorWhere(selector);
    let total = 0;
    if (selector.messageIds !== undefined) {
      for (const flags of [READ, 0]) {
        if (!changesFlags(flags, op, mask)) continue;
        total += (this.statement(
          `SELECT count(*) AS n FROM json_each(@ids) j JOIN um_messages m ON m.id = j.value
           WHERE m.implied = 1 AND ${memberOf('@uid')} AND ${impliedFlags('@uid')} = @flags AND ${noExplicitRow('@uid')} AND ${where.sql}`,
        ).get({ ...where.params, uid: userId, ids: JSON.stringify(selector.messageIds), flags }) as { n: number }).n;
      }
      return total;
    }
    const streamIds = selector.streamId === undefined ? undefined : [selector.streamId];
    const inRange = impliedSelectorWhere(selector, { idBounds: false });
    for (const range of this.impliedRangesOf(userId, streamIds, selector.minId, selector.maxId)) {
      if (!changesFlags(range.flags, op, mask)) continue;
      total += (this.statement(`SELECT count(*) AS n FROM ${this.rangeRows} AND ${inRange.sql}`).get({ ...inRange.params, ...SqliteUserMessageStore.rangeParams(userId, range) }) as { n: number }).n;
    }
    return total;
  }

  /** The user's unread rows (the unread table's and the inbox's), as a subquery `ur (message_id, flags)`. */
  private readonly unreadRows = `(SELECT message_id, flags FROM um_unread WHERE user_id = ?
     UNION ALL SELECT i.message_id, i.flags FROM um_inbox_messages im CROSS JOIN um_inbox i ON i.message_id = im.message_id AND i.user_id = ? WHERE ${flagTest('i.flags', READ, 'none')})`;
  async unreadMessages(userId: number, limit: number): Promise<UnreadMessage[]> {
    const rows: UnreadMessage[] = [];
    this.snapshot(() => {
      for (const arm of [ROW_ARMS.um_unread, INBOX]) {
        rows.push(
          ...(this.statement(
            `SELECT um.message_id AS id, m.sender_id AS senderId, m.stream_id AS streamId, m.topic AS topic, m.dm_key AS dmKey, um.flags AS flags
             FROM ${arm.from(' JOIN um_messages m ON m.id = um.message_id')} AND ${flagTest('um.flags', READ, 'none')} ORDER BY um.message_id DESC LIMIT ?`,
          ).all(userId, limit) as UnreadMessage[]),
        );
      }
      const ranges = this.impliedRangesOf(userId).filter((r) => r.flags === 0);
      if (ranges.length === 0) return;
      // Up to 50,000 ids: the user's explicit rows over the ranges' span, when few, are left out
      // here rather than probed for each message (three key lookups a message, a third of the read).
      const explicit = this.explicitIdsIn(userId, Math.min(...ranges.map((r) => r.lo)), Math.max(...ranges.map((r) => r.hi)), this.options.explicitIdsCap ?? 10_000);
      const columns = 'm.id AS id, m.sender_id AS senderId, m.stream_id AS streamId, m.topic AS topic, m.dm_key AS dmKey, 0 AS flags';
      for (const range of ranges) {
        const params = SqliteUserMessageStore.rangeParams(userId, range);
        if (explicit === undefined) {
          rows.push(...(this.statement(`SELECT ${columns} FROM ${this.rangeRows} ORDER BY m.id DESC LIMIT @limit`).all({ ...params, limit }) as UnreadMessage[]));
          continue;
        }
        const found = this.statement(`SELECT ${columns} FROM um_messages m WHERE m.stream_id = @s AND m.id >= @lo AND m.id <= @hi AND m.implied = 1 ORDER BY m.id DESC LIMIT @limit`)
          .all({ s: params.s, lo: params.lo, hi: params.hi, limit: limit + explicit.size }) as UnreadMessage[];
        rows.push(...found.filter((m) => !explicit.has(m.id)));
      }
    });
    return rows.sort((a, b) => b.id - a.id).slice(0, limit).reverse();
  }

  /** The ids of the user's explicit rows (any table) in [lo, hi], or undefined when there are more than `cap`. */
  private explicitIdsIn(userId: number, lo: number, hi: number, cap: number): Set<number> | undefined {
    const ids = new Set<number>();
    for (const sql of [
      'SELECT message_id AS id FROM um_user_messages WHERE user_id = @uid AND message_id >= @lo AND message_id <= @hi LIMIT @n',
      'SELECT message_id AS id FROM um_unread WHERE user_id = @uid AND message_id >= @lo AND message_id <= @hi LIMIT @n',
      'SELECT i.message_id AS id FROM um_inbox_messages im CROSS JOIN um_inbox i ON i.message_id = im.message_id AND i.user_id = @uid WHERE im.message_id >= @lo AND im.message_id <= @hi LIMIT @n',
    ]) {
      for (const row of this.statement(sql).all({ uid: userId, lo, hi, n: cap + 1 - ids.size }) as { id: number }[]) ids.add(row.id);
      if (ids.size > cap) return undefined;
    }
    return ids;
  }

  async unreadCounts(userId: number): Promise<UnreadCounts> {
    return this.snapshot(() => this.readUnreadCounts(userId));
  }

  /**
   * Each query starts from the user's unread rows (CROSS JOIN fixes that order): joined the other
   * way SQLite's planner read every channel message through ix_um_messages_stream_topic (for its
   * GROUP BY order), which grows with the organization's history, not the user's unread rows.
   */
  private readUnreadCounts(userId: number): UnreadCounts {
    let topics = this.statement(
      `SELECT m.stream_id AS streamId, min(m.topic) AS topic, count(*) AS count FROM ${this.unreadRows} ur CROSS JOIN um_messages m ON m.id = ur.message_id
       WHERE m.stream_id IS NOT NULL GROUP BY m.stream_id, m.topic_key ORDER BY m.stream_id, m.topic_key`,
    ).all(userId, userId) as UnreadCounts['topics'];
    const implied = this.impliedRangesOf(userId).filter((r) => r.flags === 0);
    let impliedTotal = 0;
    if (implied.length > 0) {
      // Implied unread rows, per topic of each range, merged into the explicit rows' counts.
      const byTopic = new Map<string, { streamId: number; topic: string; count: number; key: string }>();
      for (const t of topics) byTopic.set(`${t.streamId}:${t.topic.toLowerCase()}`, { ...t, key: t.topic.toLowerCase() });
      for (const range of implied) {
        const counts = this.statement(`SELECT m.stream_id AS streamId, min(m.topic) AS topic, m.topic_key AS key, count(*) AS count FROM ${this.rangeRows} GROUP BY m.topic_key`)
          .all(SqliteUserMessageStore.rangeParams(userId, range)) as { streamId: number; topic: string; key: string; count: number }[];
        for (const c of counts) {
          impliedTotal += c.count;
          const known = byTopic.get(`${c.streamId}:${c.key}`);
          if (known === undefined) byTopic.set(`${c.streamId}:${c.key}`, c);
          else {
            known.count += c.count;
            if (binaryCompare(c.topic, known.topic) < 0) known.topic = c.topic;
          }
        }
      }
      topics = [...byTopic.values()]
        .sort((a, b) => a.streamId - b.streamId || binaryCompare(a.key, b.key))
        .map(({ streamId, topic, count }) => ({ streamId, topic, count }));
    }
    const conversations = this.statement(
      `SELECT m.dm_key AS dmKey, count(*) AS count FROM ${this.unreadRows} ur CROSS JOIN um_messages m ON m.id = ur.message_id
       WHERE m.dm_key IS NOT NULL GROUP BY m.dm_key ORDER BY m.dm_key`,
    ).all(userId, userId) as UnreadCounts['conversations'];
    const { mentioned, total } = this.statement(
      `SELECT count(*) AS total, coalesce(sum(${flagTest('ur.flags', MENTION_FLAGS_MASK, 'any')}), 0) AS mentioned FROM ${this.unreadRows} ur`,
    ).get(userId, userId) as { mentioned: number; total: number };
    return { topics, conversations, mentioned, total: total + impliedTotal };
  }

  async topicParticipants(realmId: number, streamId: number, topic: string): Promise<number[]> {
    const rows = this.statement('SELECT DISTINCT sender_id AS id FROM um_messages WHERE stream_id = ? AND topic_key = ? AND realm_id = ? ORDER BY sender_id')
      .all(streamId, topic.toLowerCase(), realmId) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /**
   * Whether the user has a row (in any table) for message `m.id`: three key probes. The
   * per-user variants below start from the channel's (or topic's) messages and probe the user's
   * rows, so they cost by the channel, as the variants for the whole history do, and not by every
   * row of the user (a join from the user's rows read all of them when the topic had none).
   */
  private readonly userHasRow = `(EXISTS (SELECT 1 FROM um_user_messages a WHERE a.user_id = @uid AND a.message_id = m.id)
     OR EXISTS (SELECT 1 FROM um_unread c WHERE c.user_id = @uid AND c.message_id = m.id)
     OR EXISTS (SELECT 1 FROM um_inbox b WHERE b.message_id = m.id AND b.user_id = @uid)
     OR (m.implied = 1 AND ${memberOf('@uid')}))`;

  async topicHasMessages(realmId: number, streamId: number, topic: string, userId?: number): Promise<boolean> {
    const row =
      userId === undefined
        ? this.statement('SELECT 1 AS x FROM um_messages WHERE stream_id = ? AND topic_key = ? AND realm_id = ? LIMIT 1').get(streamId, topic.toLowerCase(), realmId)
        : this.statement(`SELECT 1 AS x FROM um_messages m WHERE m.stream_id = ? AND m.topic_key = ? AND m.realm_id = ? AND ${this.userHasRow} ORDER BY m.id DESC LIMIT 1`)
            .get(streamId, topic.toLowerCase(), realmId, { uid: userId });
    return row !== undefined;
  }

  async topicsOf(realmId: number, streamId: number, userId?: number): Promise<{ topic: string; maxId: number }[]> {
    const rows = (
      userId === undefined
        ? this.statement('SELECT topic, max(id) AS maxId FROM um_messages WHERE stream_id = ? AND realm_id = ? GROUP BY topic ORDER BY maxId DESC').all(streamId, realmId)
        : this.statement(
            `SELECT m.topic AS topic, max(m.id) AS maxId FROM um_messages m
             WHERE m.stream_id = ? AND m.realm_id = ? AND ${this.userHasRow} GROUP BY m.topic ORDER BY maxId DESC`,
          ).all(streamId, realmId, { uid: userId })
    ) as { topic: string; maxId: number }[];
    return firstPerTopic(rows);
  }

  async locationsOf(messageIds: number[]): Promise<Map<number, MessageLocation>> {
    if (messageIds.length === 0) return new Map();
    const ids = JSON.stringify(messageIds);
    const rows = this.statement('SELECT id, stream_id, topic FROM um_messages WHERE id IN (SELECT value FROM json_each(?))').all(ids) as {
      id: number;
      stream_id: number | null;
      topic: string | null;
    }[];
    const result = new Map<number, MessageLocation>(rows.map((r) => [r.id, { streamId: r.stream_id, topic: r.topic, lastMovedAt: null, moves: [] }]));
    const moves = this.statement(
      'SELECT message_id, at, user_id, target_id, prev_stream, stream, prev_topic, topic FROM um_moves WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, rowid',
    ).all(ids) as { message_id: number; at: number; user_id: number; target_id: number; prev_stream: number; stream: number; prev_topic: string; topic: string }[];
    for (const m of moves) {
      const location = result.get(m.message_id);
      if (!location) continue;
      const entry: MessageMoveEntry = { user_id: m.user_id, timestamp: m.at, target_message_id: m.target_id };
      if (m.prev_topic !== m.topic) Object.assign(entry, { prev_topic: m.prev_topic, topic: m.topic });
      if (m.prev_stream !== m.stream) Object.assign(entry, { prev_stream: m.prev_stream, stream: m.stream });
      location.moves.push(entry);
      location.lastMovedAt = m.at;
    }
    return result;
  }

  async maxMessageId(realmId: number, userId?: number): Promise<number | null> {
    if (userId === undefined) return (this.statement('SELECT max(id) AS id FROM um_messages WHERE realm_id = ?').get(realmId) as { id: number | null }).id;
    // Each table's max apart: one key lookup each (the max over all as one subquery read every row of the user).
    const ids = this.snapshot(() => [
      this.statement('SELECT max(message_id) AS id FROM um_user_messages WHERE user_id = ?').get(userId) as { id: number | null },
      this.statement('SELECT max(message_id) AS id FROM um_unread WHERE user_id = ?').get(userId) as { id: number | null },
      this.statement('SELECT max(i.message_id) AS id FROM um_inbox_messages im CROSS JOIN um_inbox i ON i.message_id = im.message_id AND i.user_id = ?').get(userId) as { id: number | null },
      // Each membership interval's newest implied message (an explicit row of it counts above).
      ...this.memberIntervals(userId).map(
        (i) =>
          this.statement('SELECT max(id) AS id FROM um_messages WHERE stream_id = @s AND id >= @lo AND id <= @hi AND implied = 1')
            .get({ s: i.streamId, lo: i.from, hi: i.to === null ? MAX_ID : i.to - 1 }) as { id: number | null },
      ),
    ]).flatMap((r) => (r.id === null ? [] : [r.id]));
    return ids.length === 0 ? null : Math.max(...ids);
  }

  async retentionCandidates(realmId: number, of: { streamId: number } | 'direct', maxId: number, limit: number): Promise<number[]> {
    // INDEXED BY: with realm_id in the condition SQLite would rather walk (realm_id, id), stepping over every other channel's messages.
    const rows =
      of === 'direct'
        ? this.statement('SELECT id FROM um_messages INDEXED BY ix_um_messages_realm_direct WHERE realm_id = ? AND dm_key IS NOT NULL AND id <= ? ORDER BY id DESC LIMIT ?').all(realmId, maxId, limit)
        : this.statement('SELECT id FROM um_messages INDEXED BY ix_um_messages_stream WHERE stream_id = ? AND id <= ? AND realm_id = ? ORDER BY id DESC LIMIT ?').all(of.streamId, maxId, realmId, limit);
    return (rows as { id: number }[]).map((r) => r.id);
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    try {
      this.db.prepare('SELECT 1 FROM um_user_messages LIMIT 1').get();
      return this.lastError ? { ok: true, detail: `last inbox merge failed: ${this.lastError.message}` } : { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }
}
