import type Database from 'better-sqlite3';
import type {
  FlagSelector,
  GlobalPosition,
  IndexedMessage,
  MessageMatch,
  MessageQuery,
  MessageRange,
  PositionedChanges,
  UnreadCounts,
  UnreadMessage,
  UserMessageChange,
  UserMessageStorePort,
} from '@app/application';
import { decodePosition, encodePosition, firstPerTopic } from '@app/application';
import { MENTION_FLAGS_MASK, MESSAGE_FLAG_BITS } from '@app/domain';
import { ATTR, flagTest, narrowWhere, needsMessage, selectorWhere } from './sqlite-narrow';

const READ = MESSAGE_FLAG_BITS.read;


/**
 * Per-user message state in the embedded read-model database (the same file and connection as
 * SqliteReadStore, whose `checkpoints` table it shares):
 *
 * - `um_user_messages (user_id, message_id, flags)`, a WITHOUT ROWID table clustered on its key,
 *   so one user's rows are contiguous and in message order: about 12 bytes a row. Partial
 *   indexes hold only the rows a hot query wants (unread, starred, mentioned, direct), like
 *   Zulip's zerver_usermessage_*_message_id indexes.
 * - `um_messages`, one row per message with what narrows filter on.
 *
 * A send inserts all recipients' rows with one INSERT … SELECT over json_each per distinct flag
 * value; a flag change is one UPDATE over the selection; both inside one transaction with the
 * checkpoint.
 */
export class SqliteUserMessageStore implements UserMessageStorePort {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

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
        id INTEGER PRIMARY KEY,
        realm_id INTEGER NOT NULL,
        sender_id INTEGER NOT NULL,
        stream_id INTEGER,
        topic TEXT,
        topic_key TEXT,
        dm_key TEXT,
        attrs INTEGER NOT NULL,
        search TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ix_um_messages_realm ON um_messages (realm_id, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_stream ON um_messages (stream_id, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_stream_topic ON um_messages (stream_id, topic_key, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_sender ON um_messages (sender_id, id);
      CREATE INDEX IF NOT EXISTS ix_um_messages_dm ON um_messages (dm_key, id) WHERE dm_key IS NOT NULL;
      CREATE TABLE IF NOT EXISTS um_user_messages (
        user_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        flags INTEGER NOT NULL,
        PRIMARY KEY (user_id, message_id)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS ix_um_unread ON um_user_messages (user_id, message_id) WHERE ${flagTest('flags', READ, 'none')};
      CREATE INDEX IF NOT EXISTS ix_um_starred ON um_user_messages (user_id, message_id) WHERE ${flagTest('flags', MESSAGE_FLAG_BITS.starred, 'any')};
      CREATE INDEX IF NOT EXISTS ix_um_mentioned ON um_user_messages (user_id, message_id) WHERE ${flagTest('flags', MENTION_FLAGS_MASK, 'any')};
      CREATE INDEX IF NOT EXISTS ix_um_private ON um_user_messages (user_id, message_id) WHERE ${flagTest('flags', MESSAGE_FLAG_BITS.is_private, 'any')};
    `);
  }

  async apply(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): Promise<void> {
    this.db
      .transaction(() => {
        const stored = this.readCheckpoint(checkpoint.name);
        for (const batch of batches) {
          if (stored !== undefined && batch.position <= stored) continue;
          for (const change of batch.changes) this.applyChange(change);
        }
        if (stored === undefined || checkpoint.position > stored) {
          this.statement('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE position < excluded.position')
            .run(checkpoint.name, encodePosition(checkpoint.position));
        }
      })
      .immediate();
  }

  private applyChange(change: UserMessageChange): void {
    switch (change.type) {
      case 'message-added':
        return this.addMessage(change.message, change.rows);
      case 'flags-changed': {
        const { sql, params } = selectorWhere(change.selector);
        const single = (change.mask & (change.mask - 1)) === 0;
        const update =
          change.op === 'add'
            ? `SET flags = flags | ${change.mask} WHERE user_id = ? AND ${single ? flagTest('flags', change.mask, 'none') : `(flags & ${change.mask}) != ${change.mask}`}`
            : `SET flags = flags & ~${change.mask} WHERE user_id = ? AND ${flagTest('flags', change.mask, 'any')}`;
        this.db.prepare(`UPDATE um_user_messages ${update} AND ${sql}`).run(change.userId, ...params);
        return;
      }
      case 'messages-moved':
        this.statement('UPDATE um_messages SET stream_id = ?, topic = ?, topic_key = ? WHERE id IN (SELECT value FROM json_each(?))')
          .run(change.streamId, change.topic, change.topic.toLowerCase(), JSON.stringify(change.messageIds));
        return;
    }
  }

  private addMessage(message: IndexedMessage, rows: { userId: number; flags: number }[]): void {
    const attrs = (message.hasLink ? ATTR.link : 0) | (message.hasImage ? ATTR.image : 0) | (message.hasAttachment ? ATTR.attachment : 0);
    this.statement(
      'INSERT OR IGNORE INTO um_messages (id, realm_id, sender_id, stream_id, topic, topic_key, dm_key, attrs, search) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      message.id, message.realmId, message.senderId, message.streamId, message.topic, message.topic?.toLowerCase() ?? null,
      message.dmKey, attrs, message.searchText.toLowerCase(),
    );
    const byFlags = new Map<number, number[]>();
    for (const row of rows) byFlags.set(row.flags, [...(byFlags.get(row.flags) ?? []), row.userId]);
    const insert = this.statement(
      'INSERT OR IGNORE INTO um_user_messages (user_id, message_id, flags) SELECT value, ?, ? FROM json_each(?)',
    );
    for (const [flags, userIds] of byFlags) insert.run(message.id, flags, JSON.stringify(userIds));
  }

  private readCheckpoint(name: string): GlobalPosition | undefined {
    const row = this.statement('SELECT position FROM checkpoints WHERE name = ?').get(name) as { position: string } | undefined;
    return row ? decodePosition(row.position) : undefined;
  }

  async getCheckpoint(name: string): Promise<GlobalPosition | undefined> {
    return this.readCheckpoint(name);
  }

  async reset(checkpointName: string): Promise<void> {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM um_user_messages; DELETE FROM um_messages;');
      this.statement('DELETE FROM checkpoints WHERE name = ?').run(checkpointName);
    })();
  }

  async findMessages(query: MessageQuery, range: MessageRange): Promise<MessageMatch[]> {
    const where = narrowWhere(query.terms, query.scope);
    const older = range.direction === 'older';
    let sql: string;
    let params: (string | number)[];
    if (query.scope === 'user') {
      const join = query.terms.some(needsMessage) ? ' JOIN um_messages m ON m.id = um.message_id' : '';
      sql = `SELECT um.message_id AS id, um.flags AS flags FROM um_user_messages um${join}
             WHERE um.user_id = ? AND um.message_id ${older ? '<=' : '>='} ? AND ${where.sql}
             ORDER BY um.message_id ${older ? 'DESC' : 'ASC'} LIMIT ?`;
      params = [query.userId, range.fromId, ...where.params, range.limit];
    } else {
      sql = `SELECT m.id AS id, um.flags AS flags FROM um_messages m
             LEFT JOIN um_user_messages um ON um.user_id = ? AND um.message_id = m.id
             WHERE m.realm_id = ? AND m.id ${older ? '<=' : '>='} ? AND ${where.sql}
             ORDER BY m.id ${older ? 'DESC' : 'ASC'} LIMIT ?`;
      params = [query.userId, query.realmId, range.fromId, ...where.params, range.limit];
    }
    if (range.limit <= 0) return [];
    return this.statement(sql).all(...params) as MessageMatch[];
  }

  async flagsFor(userId: number, messageIds: number[]): Promise<Map<number, number>> {
    if (messageIds.length === 0) return new Map();
    const rows = this.statement(
      'SELECT message_id AS id, flags FROM um_user_messages WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
    ).all(userId, JSON.stringify(messageIds)) as { id: number; flags: number }[];
    return new Map(rows.map((r) => [r.id, r.flags]));
  }

  async countFlagChanges(userId: number, selector: FlagSelector, op: 'add' | 'remove', mask: number): Promise<number> {
    const { sql, params } = selectorWhere(selector);
    const test = op === 'add' ? `(flags & ${mask}) != ${mask}` : flagTest('flags', mask, 'any');
    const row = this.db.prepare(`SELECT count(*) AS n FROM um_user_messages WHERE user_id = ? AND ${test} AND ${sql}`).get(userId, ...params) as { n: number };
    return row.n;
  }

  async unreadMessages(userId: number, limit: number): Promise<UnreadMessage[]> {
    const rows = this.statement(
      `SELECT um.message_id AS id, m.sender_id AS senderId, m.stream_id AS streamId, m.topic AS topic, m.dm_key AS dmKey, um.flags AS flags
       FROM um_user_messages um JOIN um_messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND ${flagTest('um.flags', READ, 'none')} ORDER BY um.message_id DESC LIMIT ?`,
    ).all(userId, limit) as UnreadMessage[];
    return rows.reverse();
  }

  async unreadCounts(userId: number): Promise<UnreadCounts> {
    const unread = `um.user_id = ? AND ${flagTest('um.flags', READ, 'none')}`;
    const topics = this.statement(
      `SELECT m.stream_id AS streamId, min(m.topic) AS topic, count(*) AS count FROM um_user_messages um JOIN um_messages m ON m.id = um.message_id
       WHERE ${unread} AND m.stream_id IS NOT NULL GROUP BY m.stream_id, m.topic_key ORDER BY m.stream_id, m.topic_key`,
    ).all(userId) as UnreadCounts['topics'];
    const conversations = this.statement(
      `SELECT m.dm_key AS dmKey, count(*) AS count FROM um_user_messages um JOIN um_messages m ON m.id = um.message_id
       WHERE ${unread} AND m.dm_key IS NOT NULL GROUP BY m.dm_key ORDER BY m.dm_key`,
    ).all(userId) as UnreadCounts['conversations'];
    const mentioned = (this.statement(`SELECT count(*) AS n FROM um_user_messages um WHERE ${unread} AND ${flagTest('um.flags', MENTION_FLAGS_MASK, 'any')}`).get(userId) as { n: number }).n;
    const total = (this.statement(`SELECT count(*) AS n FROM um_user_messages um WHERE ${unread}`).get(userId) as { n: number }).n;
    return { topics, conversations, mentioned, total };
  }

  async topicParticipants(realmId: number, streamId: number, topic: string): Promise<number[]> {
    const rows = this.statement(
      'SELECT DISTINCT sender_id AS id FROM um_messages WHERE stream_id = ? AND topic_key = ? AND realm_id = ? ORDER BY sender_id',
    ).all(streamId, topic.toLowerCase(), realmId) as { id: number }[];
    return rows.map((r) => r.id);
  }

  async topicHasMessages(realmId: number, streamId: number, topic: string, userId?: number): Promise<boolean> {
    const row =
      userId === undefined
        ? this.statement('SELECT 1 AS x FROM um_messages WHERE stream_id = ? AND topic_key = ? AND realm_id = ? LIMIT 1').get(streamId, topic.toLowerCase(), realmId)
        : this.statement(
            `SELECT 1 AS x FROM um_messages m JOIN um_user_messages um ON um.user_id = ? AND um.message_id = m.id
             WHERE m.stream_id = ? AND m.topic_key = ? AND m.realm_id = ? LIMIT 1`,
          ).get(userId, streamId, topic.toLowerCase(), realmId);
    return row !== undefined;
  }

  async topicsOf(realmId: number, streamId: number, userId?: number): Promise<{ topic: string; maxId: number }[]> {
    const rows = (
      userId === undefined
        ? this.statement('SELECT topic, max(id) AS maxId FROM um_messages WHERE stream_id = ? AND realm_id = ? GROUP BY topic ORDER BY maxId DESC').all(streamId, realmId)
        : this.statement(
            `SELECT m.topic AS topic, max(m.id) AS maxId FROM um_user_messages um JOIN um_messages m ON m.id = um.message_id
             WHERE um.user_id = ? AND m.stream_id = ? AND m.realm_id = ? GROUP BY m.topic ORDER BY maxId DESC`,
          ).all(userId, streamId, realmId)
    ) as { topic: string; maxId: number }[];
    return firstPerTopic(rows);
  }

  async maxMessageId(realmId: number, userId?: number): Promise<number | null> {
    const row =
      userId === undefined
        ? (this.statement('SELECT max(id) AS id FROM um_messages WHERE realm_id = ?').get(realmId) as { id: number | null })
        : (this.statement('SELECT max(message_id) AS id FROM um_user_messages WHERE user_id = ?').get(userId) as { id: number | null });
    return row.id;
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    try {
      this.db.prepare('SELECT 1 FROM um_user_messages LIMIT 1').get();
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }
}
