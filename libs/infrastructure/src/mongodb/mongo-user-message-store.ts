import { type AnyBulkWriteOperation, type ClientSession, type Collection, type Db, type Document, type MongoClient, MongoServerError } from 'mongodb';
import type {
  FlagSelector,
  GlobalPosition,
  IndexedMessage,
  MessageLocation,
  MessageMatch,
  MessageMoveEntry,
  MessageQuery,
  MessageRange,
  PositionedChanges,
  UnreadCounts,
  UnreadMessage,
  UserMessageChange,
  UserMessageStorePort,
} from '@app/application';
import { chunkPositionedChanges, decodePosition, encodePosition, firstPerTopic, MONGODB_LIMITS, type StoreLimits } from '@app/application';
import { MENTION_FLAGS_MASK, MESSAGE_FLAG_BITS, RESOLVED_TOPIC_PREFIX } from '@app/domain';
import type { MongoReadStore } from './mongo-read-store';
import { MongoNamespace } from './mongo-namespace';
import { contentSearchFields, searchFields, type SearchFields, topicSearchFields } from './mongo-search';
import { and, ATTR, flagCondition, narrowFilters, needsMessageDocument, needsUserRow, selectorFilter } from './mongo-narrow';

/** The message index: `_id` is the message id. */
type MessageDoc = {
  _id: number; r: number; snd: number; s: number | null; t: string | null; tk: string | null; dm: string | null; a: number; rs: boolean; x: string;
  /** Moves: the last-moved time and the history (issue 5). */
  ma?: number; mv?: MessageMoveEntry[];
  /** The reaction count (has:reaction); absent: none. */
  rx?: number;
} & Partial<SearchFields>;
/**
 * A user's row: `f` the flags, `ur` present (true) only while unread, for a partial index; the
 * message's filterable fields are copied onto the row so a narrow over the user's messages reads
 * one collection (a topic move updates them with one updateMany).
 */
type RowDoc = { _id: string; u: number; m: number; f: number; ur?: true; s: number | null; t: string | null; tk: string | null; dm: string | null; snd: number; a: number; rs: boolean };
type CheckpointRow = { _id: string; position: string };

const READ = MESSAGE_FLAG_BITS.read;
/** Zulip's DEFAULT_HISTORICAL_FLAGS. */
const HISTORICAL_FLAGS = MESSAGE_FLAG_BITS.read | MESSAGE_FLAG_BITS.historical;
const INDEX_CONFLICT = [85, 86];
/** Base collection names (a read-model copy adds its suffix, see MongoNamespace). */
export const UM_MESSAGES = 'um_messages';
export const UM_USER_MESSAGES = 'um_user_messages';

/**
 * Per-user message state on MongoDB, in the read store's database: `um_messages` (the index)
 * and `um_user_messages` (one document per user and message), with the projection's checkpoint
 * in the read store's `_checkpoints`, written in the same multi-document transaction as the
 * changes (a replica set is required, as for the read store). A send is one bulkWrite of
 * upserts ($setOnInsert, so a replay keeps later flag changes); a flag change one updateMany
 * with $bit.
 */
export class MongoUserMessageStore implements UserMessageStorePort {
  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    /** The collection names: live, or a blue/green copy's suffixed ones (shared with its read store). */
    private readonly namespace: MongoNamespace = new MongoNamespace(),
  ) {}

  /** Shares the read store's client (closing the read store closes it) and its collection names. */
  static fromReadStore(store: MongoReadStore): MongoUserMessageStore {
    return new MongoUserMessageStore(store.mongoClient, store.db, store.namespace);
  }

  private messages(): Collection<MessageDoc> {
    return this.db.collection<MessageDoc>(this.namespace.of(UM_MESSAGES));
  }
  private rows(): Collection<RowDoc> {
    return this.db.collection<RowDoc>(this.namespace.of(UM_USER_MESSAGES));
  }
  private checkpoints(): Collection<CheckpointRow> {
    return this.db.collection<CheckpointRow>(this.namespace.of('_checkpoints'));
  }

  async prepare(): Promise<void> {
    for (const name of [UM_MESSAGES, UM_USER_MESSAGES, '_checkpoints'].map((base) => this.namespace.of(base))) {
      if ((await this.db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0) continue;
      try {
        await this.db.createCollection(name);
      } catch (error) {
        if (!(error instanceof MongoServerError && Number(error.code) === 48)) throw error; // created concurrently
      }
    }
    const create = async (collection: Collection<any>, keys: Document, options: Document) => {
      try {
        await collection.createIndex(keys, options);
      } catch (error) {
        if (!(error instanceof MongoServerError && INDEX_CONFLICT.includes(Number(error.code)))) throw error;
      }
    };
    await create(this.messages(), { r: 1, _id: 1 }, { name: 'ix_realm' });
    await create(this.messages(), { s: 1, _id: 1 }, { name: 'ix_stream' });
    await create(this.messages(), { s: 1, tk: 1, _id: 1 }, { name: 'ix_stream_topic' });
    await create(this.messages(), { snd: 1, _id: 1 }, { name: 'ix_sender' });
    // The retention job's read of an organization's direct messages (retentionCandidates).
    await create(this.messages(), { r: 1, _id: 1 }, { name: 'ix_realm_direct', partialFilterExpression: { dm: { $type: 'string' } } });
    // Search (issue 37): the word index, multikey; messages indexed before it get their words here, once.
    await create(this.messages(), { w: 1, _id: 1 }, { name: 'ix_words' });
    await this.indexWordsOfOlderMessages();
    await create(this.rows(), { u: 1, m: 1 }, { name: 'ux_user_message', unique: true });
    await create(this.rows(), { u: 1, s: 1, tk: 1, m: 1 }, { name: 'ix_user_stream_topic' });
    await create(this.rows(), { m: 1 }, { name: 'ix_message' });
    await create(this.rows(), { u: 1, m: -1 }, { name: 'ix_unread', partialFilterExpression: { ur: true } });
  }

  /**
   * The upgrade step of issue 37 (docs/operations.md): messages indexed before the word index have
   * no `wc`; their words are computed from the stored search text and topic, in batches. Idempotent,
   * and safe beside a projector (a message it indexes meanwhile already has them).
   */
  private async indexWordsOfOlderMessages(): Promise<void> {
    // In id order from where the last batch ended (the _id index), so the whole pass reads each message once.
    for (let after = -1; ; ) {
      const batch = await this.messages().find({ _id: { $gt: after }, wc: { $exists: false } }, { projection: { _id: 1, x: 1, t: 1 } }).sort({ _id: 1 }).limit(1000).toArray();
      if (batch.length === 0) return;
      after = batch[batch.length - 1]._id;
      await this.messages().bulkWrite(
        batch.map((m) => ({ updateOne: { filter: { _id: m._id, wc: { $exists: false } }, update: { $set: searchFields(m.x, m.t) } } })),
        { ordered: false },
      );
    }
  }

  /** Transactions of at most this many documents written (see StoreLimits). */
  limits: StoreLimits = MONGODB_LIMITS;

  /**
   * In transactions of at most limits.maxWritesPerTransaction documents, each with the checkpoint
   * at its last event (chunkPositionedChanges); a crash between two resumes after the last one.
   */
  async apply(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): Promise<void> {
    for (const group of chunkPositionedChanges(batches, checkpoint.position, this.limits.maxWritesPerTransaction)) {
      await this.applyOne(group.batches, { name: checkpoint.name, position: group.checkpoint });
    }
  }

  private async applyOne(batches: PositionedChanges[], checkpoint: { name: string; position: GlobalPosition }): Promise<void> {
    const position = encodePosition(checkpoint.position);
    await this.client.withSession((session) =>
      session.withTransaction(async () => {
        const row = await this.checkpoints().findOne({ _id: checkpoint.name }, { session });
        const stored = row ? decodePosition(row.position) : undefined;
        for (const batch of batches) {
          if (stored !== undefined && batch.position <= stored) continue;
          for (const change of batch.changes) await this.applyChange(change, session);
        }
        await this.checkpoints().updateOne(
          { _id: checkpoint.name },
          [{ $set: { position: { $cond: [{ $lt: [{ $ifNull: ['$position', ''] }, position] }, position, '$position'] } } }],
          { upsert: true, session },
        );
      }),
    );
  }

  private async applyChange(change: UserMessageChange, session: ClientSession): Promise<void> {
    switch (change.type) {
      case 'message-added':
        return this.addMessage(change.message, change.rows, session);
      case 'flags-changed': {
        if (change.selector.createHistorical?.length) await this.createHistorical(change.userId, change.selector.createHistorical, session);
        const { mask, op } = change;
        const filter = { ...selectorFilter(change.userId, change.selector), ...(op === 'add' ? { f: { $not: { $bitsAllSet: mask } } } : flagCondition('f', mask, 'any')) };
        const touchesRead = (mask & READ) !== 0;
        const update: Document =
          op === 'add'
            ? { $bit: { f: { or: mask } }, ...(touchesRead ? { $unset: { ur: '' } } : {}) }
            : { $bit: { f: { and: ~mask } }, ...(touchesRead ? { $set: { ur: true } } : {}) };
        await this.rows().updateMany(filter, update, { session });
        return;
      }
      case 'messages-moved': {
        const moved = { s: change.streamId, t: change.topic, tk: change.topic.toLowerCase(), rs: change.topic.startsWith(RESOLVED_TOPIC_PREFIX) };
        if (change.history) {
          // One pipeline update: the stage reads each document as it was, so the entry records the old place.
          const { userId, timestamp, targetMessageId } = change.history;
          const entry = {
            $mergeObjects: [
              { user_id: { $literal: userId }, timestamp: { $literal: timestamp }, target_message_id: { $literal: targetMessageId } },
              { $cond: [{ $ne: ['$t', { $literal: change.topic }] }, { prev_topic: '$t', topic: { $literal: change.topic } }, {}] },
              { $cond: [{ $ne: ['$s', { $literal: change.streamId }] }, { prev_stream: '$s', stream: { $literal: change.streamId } }, {}] },
            ],
          };
          const literal = Object.fromEntries(Object.entries(moved).map(([k, v]) => [k, { $literal: v }]));
          await this.messages().updateMany(
            { _id: { $in: change.messageIds } },
            [{ $set: { mv: { $concatArrays: [{ $ifNull: ['$mv', []] }, [entry]] }, ma: { $literal: timestamp }, ...literal } }],
            { session },
          );
        } else {
          await this.messages().updateMany({ _id: { $in: change.messageIds } }, { $set: moved }, { session });
        }
        // The topic's words change; the content's stay (one pipeline update: w is their union).
        const topic = topicSearchFields(change.topic);
        await this.messages().updateMany(
          { _id: { $in: change.messageIds } },
          [{ $set: { wt: { $literal: topic.wt }, qt: { $literal: topic.qt }, w: { $setUnion: [{ $ifNull: ['$wc', []] }, { $literal: topic.wt }] } } }],
          { session },
        );
        await this.rows().updateMany({ m: { $in: change.messageIds } }, { $set: moved }, { session });
        if (change.removeRowsOf?.length) await this.rows().deleteMany({ u: { $in: change.removeRowsOf }, m: { $in: change.messageIds } }, { session });
        if (change.addRows?.userIds.length) {
          const messages = await this.messages().find({ _id: { $in: change.messageIds } }, { session }).toArray();
          const flags = change.addRows.flags;
          const ops: AnyBulkWriteOperation<RowDoc>[] = messages.flatMap((msg) =>
            change.addRows!.userIds.map((u) => ({
              updateOne: {
                filter: { _id: `${u}:${msg._id}` },
                update: {
                  $setOnInsert: {
                    _id: `${u}:${msg._id}`, u, m: msg._id, f: flags, ...((flags & READ) === 0 ? { ur: true as const } : {}),
                    s: msg.s, t: msg.t, tk: msg.tk, dm: msg.dm, snd: msg.snd, a: msg.a, rs: msg.rs,
                  },
                },
                upsert: true,
              },
            })),
          );
          if (ops.length > 0) await this.rows().bulkWrite(ops, { ordered: false, session });
        }
        return;
      }
      case 'message-edited': {
        const a = (change.hasLink ? ATTR.link : 0) | (change.hasImage ? ATTR.image : 0) | (change.hasAttachment ? ATTR.attachment : 0);
        const content = contentSearchFields(change.searchText);
        await this.messages().updateOne(
          { _id: change.messageId },
          [{ $set: { x: { $literal: change.searchText.toLowerCase() }, a: { $literal: a }, wc: { $literal: content.wc }, q: { $literal: content.q }, w: { $setUnion: [{ $ifNull: ['$wt', []] }, { $literal: content.wc }] } } }],
          { session },
        );
        await this.rows().updateMany({ m: change.messageId }, { $set: { a } }, { session });
        const { mentioned, stream_wildcard_mentioned: stream, topic_wildcard_mentioned: topic } = MESSAGE_FLAG_BITS;
        await this.rows().updateMany({ m: change.messageId, f: { $bitsAnySet: mentioned | stream | topic } }, { $bit: { f: { and: ~(mentioned | stream | topic) } } }, { session }); // ix_message
        if (change.mentionedUserIds.length) await this.rows().updateMany({ m: change.messageId, u: { $in: change.mentionedUserIds } }, { $bit: { f: { or: mentioned } } }, { session });
        if (change.topicWildcardMentionedUserIds.length) {
          await this.rows().updateMany({ m: change.messageId, u: { $in: change.topicWildcardMentionedUserIds } }, { $bit: { f: { or: topic } } }, { session });
        }
        if (change.streamWildcardMentioned) await this.rows().updateMany({ m: change.messageId }, { $bit: { f: { or: stream } } }, { session });
        if (change.alertWords) {
          const alert = MESSAGE_FLAG_BITS.has_alert_word;
          if (change.alertWords.previousUserIds.length) {
            await this.rows().updateMany({ m: change.messageId, u: { $in: change.alertWords.previousUserIds } }, { $bit: { f: { and: ~alert } } }, { session });
          }
          if (change.alertWords.userIds.length) await this.rows().updateMany({ m: change.messageId, u: { $in: change.alertWords.userIds } }, { $bit: { f: { or: alert } } }, { session });
        }
        return;
      }
      case 'reactions-counted':
        await this.messages().updateOne(
          { _id: change.messageId },
          [{ $set: { rx: { $max: [0, { $add: [{ $ifNull: ['$rx', 0] }, change.delta] }] } } }],
          { session },
        );
        return;
      case 'messages-deleted':
        await this.messages().deleteMany({ _id: { $in: change.messageIds } }, { session });
        await this.rows().deleteMany({ m: { $in: change.messageIds } }, { session });
        return;
    }
  }

  /** create_historical_user_messages: `read | historical` rows, copying the message's fields, for messages without a row. */
  private async createHistorical(userId: number, messageIds: number[], session: ClientSession): Promise<void> {
    const messages = await this.messages().find({ _id: { $in: messageIds } }, { session }).toArray();
    if (messages.length === 0) return;
    const ops: AnyBulkWriteOperation<RowDoc>[] = messages.map((msg) => ({
      updateOne: {
        filter: { _id: `${userId}:${msg._id}` },
        update: {
          $setOnInsert: { _id: `${userId}:${msg._id}`, u: userId, m: msg._id, f: HISTORICAL_FLAGS, s: msg.s, t: msg.t, tk: msg.tk, dm: msg.dm, snd: msg.snd, a: msg.a, rs: msg.rs },
        },
        upsert: true,
      },
    }));
    await this.rows().bulkWrite(ops, { ordered: false, session });
  }

  private async addMessage(message: IndexedMessage, rows: { userId: number; flags: number }[], session: ClientSession): Promise<void> {
    const a = (message.hasLink ? ATTR.link : 0) | (message.hasImage ? ATTR.image : 0) | (message.hasAttachment ? ATTR.attachment : 0);
    const fields = {
      s: message.streamId, t: message.topic, tk: message.topic?.toLowerCase() ?? null, dm: message.dmKey, snd: message.senderId, a,
      rs: message.topic?.startsWith(RESOLVED_TOPIC_PREFIX) ?? false,
    };
    const indexed = await this.messages().updateOne(
      { _id: message.id },
      { $setOnInsert: { _id: message.id, r: message.realmId, ...fields, x: message.searchText.toLowerCase(), ...searchFields(message.searchText, message.topic) } },
      { upsert: true, session },
    );
    // A message already indexed is left alone (a replayed send).
    if (indexed.upsertedCount === 0 || rows.length === 0) return;
    const ops: AnyBulkWriteOperation<RowDoc>[] = rows.map(({ userId, flags }) => ({
      updateOne: {
        filter: { _id: `${userId}:${message.id}` },
        update: { $setOnInsert: { _id: `${userId}:${message.id}`, u: userId, m: message.id, f: flags, ...((flags & READ) === 0 ? { ur: true as const } : {}), ...fields } },
        upsert: true,
      },
    }));
    await this.rows().bulkWrite(ops, { ordered: false, session });
  }

  async getCheckpoint(name: string): Promise<GlobalPosition | undefined> {
    const row = await this.checkpoints().findOne({ _id: name });
    return row ? decodePosition(row.position) : undefined;
  }

  async reset(checkpointName: string): Promise<void> {
    await this.rows().deleteMany({});
    await this.messages().deleteMany({});
    await this.checkpoints().deleteOne({ _id: checkpointName });
  }

  async findMessages(query: MessageQuery, range: MessageRange): Promise<MessageMatch[]> {
    if (range.limit <= 0) return [];
    const older = range.direction === 'older';
    const bound = older ? { $lte: range.fromId } : { $gte: range.fromId };
    const order = older ? -1 : 1;
    // A search over the user's rows is driven by the word index, as a channel's history is, keeping messages with a row.
    const search = query.terms.some((t) => t.kind === 'search' && !t.negated);
    if (query.scope === 'user' && !search) {
      const { early, late } = narrowFilters(query.terms, 'rows', needsMessageDocument, 'msg.', { early: 'f', late: 'f' });
      const pipeline: Document[] = [{ $match: and([{ u: query.userId, m: bound }, ...early]) }, { $sort: { m: order } }];
      if (late.length > 0) {
        pipeline.push({ $lookup: { from: this.namespace.of(UM_MESSAGES), localField: 'm', foreignField: '_id', as: 'msg' } }, { $unwind: '$msg' }, { $match: and(late) });
      }
      pipeline.push({ $limit: range.limit }, { $project: { _id: 0, id: '$m', flags: '$f' } });
      return (await this.rows().aggregate<MessageMatch>(pipeline).toArray()).map((r) => ({ id: r.id, flags: r.flags }));
    }
    const { early, late } = narrowFilters(query.terms, 'messages', needsUserRow, '', { early: 'f', late: 'row.f' });
    const pipeline: Document[] = [{ $match: and([{ r: query.realmId, _id: bound }, ...early]) }, { $sort: { _id: order } }];
    // Without conditions on the user's row, limit first so that only the returned messages are joined.
    if (late.length === 0 && query.scope === 'history') pipeline.push({ $limit: range.limit });
    pipeline.push({
      $lookup: { from: this.namespace.of(UM_USER_MESSAGES), let: { m: '$_id' }, pipeline: [{ $match: { u: query.userId, $expr: { $eq: ['$m', '$$m'] } } }], as: 'row' },
    });
    pipeline.push({ $set: { row: { $first: '$row' } } });
    if (query.scope === 'user') pipeline.push({ $match: { 'row.u': query.userId } });
    if (late.length > 0) pipeline.push({ $set: { 'row.f': { $ifNull: ['$row.f', 0] } } }, { $match: and(late) });
    if (late.length > 0 || query.scope === 'user') pipeline.push({ $limit: range.limit });
    pipeline.push({ $project: { _id: 0, id: '$_id', flags: { $ifNull: ['$row.f', null] } } });
    return (await this.messages().aggregate<MessageMatch>(pipeline).toArray()).map((r) => ({ id: r.id, flags: r.flags ?? null }));
  }

  async flagsFor(userId: number, messageIds: number[]): Promise<Map<number, number>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.rows().find({ u: userId, m: { $in: messageIds } }, { projection: { m: 1, f: 1 } }).toArray();
    return new Map(rows.map((r) => [r.m, r.f]));
  }

  async flagsForUsers(userIds: number[], messageIds: number[]): Promise<Map<number, Map<number, number>>> {
    if (userIds.length === 0 || messageIds.length === 0) return new Map();
    // ix_message: the messages' rows, then the users among them.
    const rows = await this.rows().find({ m: { $in: messageIds }, u: { $in: userIds } }, { projection: { u: 1, m: 1, f: 1 } }).toArray();
    const byUser = new Map<number, Map<number, number>>();
    for (const r of rows) {
      const flags = byUser.get(r.u);
      if (flags) flags.set(r.m, r.f);
      else byUser.set(r.u, new Map([[r.m, r.f]]));
    }
    return byUser;
  }

  async usersWithFlags(messageId: number, userIds: number[], mask: number): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = await this.rows().find({ m: messageId, u: { $in: userIds }, f: { $bitsAllSet: mask } }, { projection: { u: 1 } }).toArray();
    return [...new Set(rows.map((r) => r.u))].sort((a, b) => a - b);
  }

  async countFlagChanges(userId: number, selector: FlagSelector, op: 'add' | 'remove', mask: number): Promise<number> {
    const flags = op === 'add' ? { f: { $not: { $bitsAllSet: mask } } } : flagCondition('f', mask, 'any');
    return this.rows().countDocuments({ ...selectorFilter(userId, selector), ...flags });
  }

  async unreadMessages(userId: number, limit: number): Promise<UnreadMessage[]> {
    const rows = await this.rows().find({ u: userId, ur: true }).sort({ m: -1 }).limit(limit).toArray();
    return rows.reverse().map((r) => ({ id: r.m, senderId: r.snd, streamId: r.s, topic: r.t, dmKey: r.dm, flags: r.f }));
  }

  async unreadCounts(userId: number): Promise<UnreadCounts> {
    const unread = { u: userId, ur: true as const };
    const topics = await this.rows()
      .aggregate<{ _id: { s: number; tk: string }; topic: string; count: number }>([
        { $match: { ...unread, s: { $ne: null } } },
        { $group: { _id: { s: '$s', tk: '$tk' }, topic: { $min: '$t' }, count: { $sum: 1 } } },
        { $sort: { '_id.s': 1, '_id.tk': 1 } },
      ])
      .toArray();
    const conversations = await this.rows()
      .aggregate<{ _id: string; count: number }>([{ $match: { ...unread, dm: { $type: 'string' } } }, { $group: { _id: '$dm', count: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    return {
      topics: topics.map((t) => ({ streamId: t._id.s, topic: t.topic, count: t.count })),
      conversations: conversations.map((c) => ({ dmKey: c._id, count: c.count })),
      mentioned: await this.rows().countDocuments({ ...unread, f: { $bitsAnySet: MENTION_FLAGS_MASK } }),
      total: await this.rows().countDocuments(unread),
    };
  }

  async topicParticipants(realmId: number, streamId: number, topic: string): Promise<number[]> {
    const senders = (await this.messages().distinct('snd', { r: realmId, s: streamId, tk: topic.toLowerCase() })) as number[];
    return senders.sort((a, b) => a - b);
  }

  async topicHasMessages(realmId: number, streamId: number, topic: string, userId?: number): Promise<boolean> {
    const found =
      userId === undefined
        ? await this.messages().findOne({ r: realmId, s: streamId, tk: topic.toLowerCase() }, { projection: { _id: 1 } })
        : await this.rows().findOne({ u: userId, s: streamId, tk: topic.toLowerCase() }, { projection: { _id: 1 } });
    return found !== null;
  }

  async topicsOf(realmId: number, streamId: number, userId?: number): Promise<{ topic: string; maxId: number }[]> {
    const rows =
      userId === undefined
        ? await this.messages()
            .aggregate<{ _id: string; maxId: number }>([{ $match: { r: realmId, s: streamId } }, { $group: { _id: '$t', maxId: { $max: '$_id' } } }, { $sort: { maxId: -1 } }])
            .toArray()
        : await this.rows()
            .aggregate<{ _id: string; maxId: number }>([{ $match: { u: userId, s: streamId } }, { $group: { _id: '$t', maxId: { $max: '$m' } } }, { $sort: { maxId: -1 } }])
            .toArray();
    return firstPerTopic(rows.map((r) => ({ topic: r._id, maxId: r.maxId })));
  }

  async locationsOf(messageIds: number[]): Promise<Map<number, MessageLocation>> {
    if (messageIds.length === 0) return new Map();
    const docs = await this.messages()
      .find({ _id: { $in: messageIds } }, { projection: { s: 1, t: 1, ma: 1, mv: 1 } })
      .toArray();
    return new Map(docs.map((d) => [d._id, { streamId: d.s, topic: d.t, lastMovedAt: d.ma ?? null, moves: d.mv ?? [] }]));
  }

  async maxMessageId(realmId: number, userId?: number): Promise<number | null> {
    if (userId === undefined) {
      const [newest] = await this.messages().find({ r: realmId }, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).toArray();
      return newest?._id ?? null;
    }
    const [newest] = await this.rows().find({ u: userId }, { projection: { m: 1 } }).sort({ m: -1 }).limit(1).toArray();
    return newest?.m ?? null;
  }

  async retentionCandidates(realmId: number, of: { streamId: number } | 'direct', maxId: number, limit: number): Promise<number[]> {
    const [filter, hint] =
      of === 'direct'
        ? [{ r: realmId, dm: { $type: 'string' as const }, _id: { $lte: maxId } }, 'ix_realm_direct']
        : [{ s: of.streamId, r: realmId, _id: { $lte: maxId } }, 'ix_stream'];
    const docs = await this.messages().find(filter, { projection: { _id: 1 } }).hint(hint).sort({ _id: -1 }).limit(limit).toArray();
    return docs.map((d) => d._id);
  }

  async close(): Promise<void> {
    // The read store owns the client and closes it.
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    try {
      await this.db.command({ ping: 1 });
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }
}

