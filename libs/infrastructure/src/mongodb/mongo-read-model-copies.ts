import { hostname } from 'node:os';
import { type Db, MongoClient, MongoServerError } from 'mongodb';
import {
  cloneLayout,
  type LiveReadModels,
  type ReadModelCopiesPort,
  type ReadModelCopy,
  type ReadModelLayout,
  RoutingReadStore,
  SwitchableUserMessageStore,
} from '@app/application';
import { gated, MongoNamespace, type SwitchGate } from './mongo-namespace';
import { CHECKPOINTS, collectionName, MongoReadStore } from './mongo-read-store';
import { MongoUserMessageStore, UM_MESSAGES, UM_USER_MESSAGES } from './mongo-user-message-store';

/** The label of the live collections (unsuffixed names) as opened at start. */
export const LIVE_COPY_LABEL = 'live';
/** A switch under way: `{ _id: suffix, label, renames: [{from, to}], checkpoints: {name: position}, startedAt }`. */
export const SWITCH_RECORDS = '_read_model_switch';
/** The copies being built: `{ _id: label, suffix, createdAt, heartbeatAt, host, pid }`. */
export const COPY_RECORDS = '_read_model_copies';
/** The checkpoint of the per-user message state (its collections are um_messages and um_user_messages). */
const USER_MESSAGES_CHECKPOINT = 'user_messages';
const COPY_LABEL = /^rb_[0-9a-z]{1,20}$/;
const NAMESPACE_NOT_FOUND = 26;
const DUPLICATE_KEY = 11000;

type Rename = { from: string; to: string };
type SwitchRecord = { _id: string; label: string; renames: Rename[]; checkpoints: Record<string, string>; startedAt: Date };
type CopyRecord = { _id: string; suffix: string; createdAt: Date; heartbeatAt: Date; host: string; pid: number };
type CheckpointRow = { _id: string; position: string };

export type MongoReadModelCopiesOptions = {
  /** How often a copy being built records that its process is alive (ms). */
  heartbeatMs?: number;
  /** A copy whose heartbeat is older than this is abandoned, and dropped at the next start (ms). */
  staleAfterMs?: number;
  now?: () => number;
};

type OpenCopy = {
  label: string;
  namespace: MongoNamespace;
  copy: ReadModelCopy;
  heartbeat?: NodeJS.Timeout;
};

const suffixOf = (label: string) => `__${label}`;
const isServerError = (error: unknown, code: number) => error instanceof MongoServerError && Number(error.code) === code;
/** Holds every gate (in order) while `exclusive` runs. */
const holdAll = <T>(gates: SwitchGate[], exclusive: () => Promise<T>): Promise<T> =>
  gates.length === 0 ? exclusive() : gates[0].hold(() => holdAll(gates.slice(1), exclusive));

/**
 * Read-model copies on MongoDB (docs/operations.md, "Servers mode"). A copy is the same
 * collections with a suffix in the same database (`rm_users__rb_mhx2k1a`, `um_messages__rb_…`,
 * `_checkpoints__rb_…`), written by a MongoReadStore and a MongoUserMessageStore whose
 * MongoNamespace carries the suffix; both share this object's MongoClient, which only close()
 * closes.
 *
 * The switch (persistLayout) renames the copy's collections over the live names, each with one
 * atomic `renameCollection … dropTarget: true` (which also drops the old live collection). Every
 * store of this process is held meanwhile (SwitchGate), and the copy's stores then go on with
 * the live names, so in-process readers and writers see the old collection or the new one,
 * never a missing or re-created suffixed one. A record in `_read_model_switch` written before
 * the first rename and deleted after the last makes a start finish an interrupted switch.
 *
 * Every process reads and writes the live names, so after a switch there is nothing to route:
 * the next start opens the live names again (no layout to store).
 */
export class MongoReadModelCopies implements ReadModelCopiesPort {
  readonly supported = true;
  /** The switch moves the copy over the live collections: nothing of the old one is left to clear. */
  readonly renamesOverLive = true;
  private readonly open = new Map<string, OpenCopy>();
  /** Namespaces of this process's stores that use the live names (held during a switch). */
  private readonly liveNamespaces: MongoNamespace[] = [];
  private counter = 0;
  private closed = false;

  constructor(
    private readonly client: MongoClient,
    readonly db: Db,
    private readonly options: MongoReadModelCopiesOptions = {},
  ) {}

  /**
   * Connects, finishes a switch an earlier process left halfway, drops abandoned copies, and
   * returns the live stores (unsuffixed names) with this object as their copies port.
   */
  static async openLive(uri: string, dbName: string, options: MongoReadModelCopiesOptions = {}): Promise<LiveReadModels & { copies: MongoReadModelCopies }> {
    const client = new MongoClient(uri);
    try {
      await client.connect();
      const copies = new MongoReadModelCopies(client, client.db(dbName), options);
      await copies.recover();
      return await copies.openLiveStores();
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** The live stores over this object's client (also for tests that reopen a database). */
  async openLiveStores(): Promise<LiveReadModels & { copies: MongoReadModelCopies }> {
    const namespace = new MongoNamespace();
    const store = await MongoReadStore.open(this.client, this.db, namespace);
    const userMessages = MongoUserMessageStore.fromReadStore(store);
    this.liveNamespaces.push(namespace);
    const live: OpenCopy = {
      label: LIVE_COPY_LABEL,
      namespace,
      copy: { label: LIVE_COPY_LABEL, readStore: gated(store, namespace.gate), userMessageStore: gated(userMessages, namespace.gate) },
    };
    this.open.set(LIVE_COPY_LABEL, live);
    return {
      readStore: new RoutingReadStore(new Map([[LIVE_COPY_LABEL, live.copy.readStore]]), { default: LIVE_COPY_LABEL, collections: {}, checkpoints: {} }),
      userMessages: new SwitchableUserMessageStore(live.copy.userMessageStore),
      copies: this,
    };
  }

  private get switches() {
    return this.db.collection<SwitchRecord>(SWITCH_RECORDS);
  }

  private get copyRecords() {
    return this.db.collection<CopyRecord>(COPY_RECORDS);
  }

  private async exists(name: string): Promise<boolean> {
    return (await this.db.listCollections({ name }, { nameOnly: true }).toArray()).length > 0;
  }

  /** Collections of this database whose name ends with the suffix. */
  private async suffixed(suffix: string): Promise<string[]> {
    const found = await this.db.listCollections({ name: { $regex: `${suffix}$` } }, { nameOnly: true }).toArray();
    return found.map((c) => c.name).filter((name) => name.endsWith(suffix) && name.length > suffix.length);
  }

  async create(): Promise<ReadModelCopy> {
    const now = new Date(this.now());
    let label: string;
    for (;;) {
      label = `rb_${now.getTime().toString(36)}${(++this.counter).toString(36)}`;
      try {
        // The record claims the label (its _id) across processes, and its heartbeat tells a
        // later start whether the copy was abandoned.
        await this.copyRecords.insertOne({ _id: label, suffix: suffixOf(label), createdAt: now, heartbeatAt: now, host: hostname(), pid: process.pid });
        break;
      } catch (error) {
        if (!isServerError(error, DUPLICATE_KEY)) throw error;
      }
    }
    const namespace = new MongoNamespace(suffixOf(label));
    const store = await MongoReadStore.open(this.client, this.db, namespace);
    const userMessages = MongoUserMessageStore.fromReadStore(store);
    // Created up front (with their indexes), so that an "all" switch replaces them even if the
    // log holds no message.
    await userMessages.prepare();
    const open: OpenCopy = {
      label,
      namespace,
      copy: { label, readStore: gated(store, namespace.gate), userMessageStore: gated(userMessages, namespace.gate) },
    };
    open.heartbeat = setInterval(() => {
      this.copyRecords.updateOne({ _id: label }, { $set: { heartbeatAt: new Date(this.now()) } }).catch(() => undefined);
    }, this.options.heartbeatMs ?? 30_000);
    open.heartbeat.unref();
    this.open.set(label, open);
    return open.copy;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * Renames the copies the layout newly uses over the live collections (see the class comment).
   * `default` = the copy: every collection of the copy replaces its live namesake (the
   * checkpoints collection last). Otherwise only the collections of the projections routed to
   * it (`um_*` for `user_messages`), and their checkpoints are copied into the live
   * `_checkpoints` (never moving one backwards); the copy's other collections are dropped.
   */
  async persistLayout(layout: ReadModelLayout): Promise<void> {
    const labels = new Set([layout.default, ...Object.values(layout.collections), ...Object.values(layout.checkpoints)]);
    for (const label of labels) {
      const open = this.open.get(label);
      if (!open || open.namespace.isLive) continue;
      await this.switchCopy(open, cloneLayout(layout));
    }
  }

  private async switchCopy(open: OpenCopy, layout: ReadModelLayout): Promise<void> {
    const { namespace, label } = open;
    const suffix = namespace.suffix;
    await holdAll([namespace.gate, ...this.liveNamespaces.map((n) => n.gate)], async () => {
      const renames: Rename[] = [];
      const checkpoints: Record<string, string> = {};
      if (layout.default === label) {
        const names = await this.suffixed(suffix);
        const checkpointsLast = (name: string) => (name === CHECKPOINTS + suffix ? 1 : 0);
        names.sort((a, b) => checkpointsLast(a) - checkpointsLast(b) || a.localeCompare(b));
        for (const from of names) renames.push({ from, to: from.slice(0, -suffix.length) });
      } else {
        const bases: string[] = [];
        for (const [collection, owner] of Object.entries(layout.collections)) if (owner === label) bases.push(collectionName(collection));
        const copied = this.db.collection<CheckpointRow>(CHECKPOINTS + suffix);
        for (const [name, owner] of Object.entries(layout.checkpoints)) {
          if (owner !== label) continue;
          if (name === USER_MESSAGES_CHECKPOINT) bases.push(UM_MESSAGES, UM_USER_MESSAGES);
          const row = await copied.findOne({ _id: name });
          if (row) checkpoints[name] = row.position;
        }
        for (const base of bases) renames.push({ from: base + suffix, to: base });
      }
      let recorded = false;
      try {
        const record: SwitchRecord = { _id: suffix, label, renames, checkpoints, startedAt: new Date(this.now()) };
        await this.switches.insertOne(record);
        recorded = true;
        await this.finishSwitch(record);
      } finally {
        // From here on the copy's stores use the live names, as every other process does (also
        // when a rename failed halfway: the record stays, and the next start finishes it).
        if (recorded) {
          namespace.suffix = '';
          this.liveNamespaces.push(namespace);
          if (open.heartbeat) clearInterval(open.heartbeat);
        }
      }
    });
  }

  /** Renames what is left to rename, copies the checkpoints, drops the copy's other collections, forgets the switch. Idempotent. */
  private async finishSwitch(record: SwitchRecord): Promise<void> {
    const suffix = record._id;
    for (const { from, to } of record.renames) {
      try {
        await this.db.renameCollection(from, to, { dropTarget: true });
      } catch (error) {
        // The source is gone (NamespaceNotFound): renamed already, before a crash or by another
        // process finishing the same record. Any other failure with the source still there is real.
        if (!isServerError(error, NAMESPACE_NOT_FOUND) && (await this.exists(from))) throw error;
      }
    }
    const live = this.db.collection<CheckpointRow>(CHECKPOINTS);
    for (const [name, position] of Object.entries(record.checkpoints)) {
      // Never backwards: projectors of other processes may have moved it on since.
      await live.updateOne(
        { _id: name },
        [{ $set: { position: { $cond: [{ $lt: [{ $ifNull: ['$position', ''] }, position] }, position, '$position'] } } }],
        { upsert: true },
      );
    }
    for (const name of await this.suffixed(suffix)) await this.db.collection(name).drop();
    await this.switches.deleteOne({ _id: suffix });
    await this.copyRecords.deleteOne({ _id: record.label });
  }

  /**
   * At start: finishes the switches a stopped process left halfway, then drops the copies whose
   * rebuild stopped (no heartbeat for `staleAfterMs`, 10 minutes by default).
   */
  async recover(): Promise<{ finished: string[]; dropped: string[] }> {
    const finished: string[] = [];
    for (const record of await this.switches.find({}).toArray()) {
      await this.finishSwitch(record);
      finished.push(record.label);
    }
    const dropped: string[] = [];
    const staleBefore = new Date(this.now() - (this.options.staleAfterMs ?? 10 * 60_000));
    for (const record of await this.copyRecords.find({ heartbeatAt: { $lt: staleBefore } }).toArray()) {
      await this.dropCollectionsOf(record._id);
      dropped.push(record._id);
    }
    return { finished, dropped };
  }

  private async dropCollectionsOf(label: string): Promise<void> {
    // Collection.drop() resolves false for a collection that is gone already.
    for (const name of await this.suffixed(suffixOf(label))) await this.db.collection(name).drop();
    await this.copyRecords.deleteOne({ _id: label });
  }

  /**
   * A copy switched in (or the live one it replaced, whose collections `dropTarget` dropped) is
   * only forgotten: its names are the live ones. A copy that never switched (a failed or
   * abandoned rebuild) loses its suffixed collections; a label of an earlier process (`rb_…`)
   * too.
   */
  async drop(label: string): Promise<void> {
    const open = this.open.get(label);
    if (open) {
      this.open.delete(label);
      if (open.heartbeat) clearInterval(open.heartbeat);
      if (open.namespace.isLive) return;
      await open.namespace.gate.hold(async () => {
        await this.dropCollectionsOf(label);
        open.namespace.gate.retire(new Error(`read-model copy ${label} was dropped`));
      });
      return;
    }
    if (label !== LIVE_COPY_LABEL && COPY_LABEL.test(label)) {
      if ((await this.switches.countDocuments({ label })) > 0) return; // switched, the next start finishes it
      await this.dropCollectionsOf(label);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const open of this.open.values()) if (open.heartbeat) clearInterval(open.heartbeat);
    this.open.clear();
    await this.client.close();
  }
}
