import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ChannelTopicRef,
  FlagSelector,
  MessageRange,
  NarrowCondition,
  NarrowTerm,
  PositionedChanges,
  UnreadCounts,
  UserMessageChange,
  UserMessageRow,
  UserMessageStorePort,
} from '@app/application';
import { directConversationKey, MENTION_FLAGS_MASK, MESSAGE_FLAG_BITS as F, parseSearchQuery } from '@app/domain';
import { makeTempDir, seededRandom } from '@app/testing';
import { openSqlite } from './sqlite';
import { SqliteUserMessageStore, type SqliteUserMessageStoreOptions } from './sqlite-user-message-store';

/**
 * A differential test of the embedded per-user message store: two differently configured
 * instances are fed the same seeded, random (but realistic) changes, and every read of the port
 * must give both the same answer. Each configuration pair runs every seed (one `it` each, so a
 * failure names its seed).
 *
 * Per seed: ~420 events in batches of 1..20 (now and then 30..80, and now and then the previous
 * batch redelivered); after every batch both stores' rows (every user's flags for every id ever
 * used, and unread counts) are compared, and every CHECK_EVERY batches every read of the port
 * (findMessages over ~10 narrows x 2 scopes x 4 ranges per user, unread messages, topics,
 * receipts, counts of a change, locations, newest ids). The second store is also read through a
 * second instance on its own connection to its file (another process of the split layout), its
 * writer is restarted now and then, and at the end it is rebuilt from the whole log in batches of
 * other sizes and compared again.
 *
 * A failure names the query, the seed and the batch, and writes the change log to the temp
 * directory; with UMDIFF_MINIMIZE=1 it is shrunk to the fewest events that still disagree and
 * printed. UMDIFF_SEEDS ("100-150") and UMDIFF_EVENTS (600) run longer hunts.
 *
 * THE configurations compared, in one place: options are plain records so that a key the store
 * does not know yet (a layout being written) compiles.
 */
type StoreOptions = Record<string, unknown>;
const PAIRS: Record<string, [StoreOptions, StoreOptions]> = {
  // Implied recipients (sqlite-implied-recipients.ts) against every row written, as the rows layout was.
  'every row written vs implied recipients': [{ impliedRecipients: false }, { impliedRecipients: true }],
  'every row written, merged after every apply vs implied recipients, rows written directly, explicit rows always probed': [
    { impliedRecipients: false, compactAtMessages: 1, compactSynchronously: true },
    { impliedRecipients: true, directAtMessages: 1, explicitIdsCap: 0 },
  ],
  'inbox only vs merged after every apply': [{}, { compactAtMessages: 1, compactSynchronously: true }],
  'inbox only vs rows written directly (catch-up)': [{}, { directAtMessages: 1 }],
  'inbox only vs inbox bounded at one message, one-row steps': [{}, { maxInboxMessages: 1, mergeStepRows: 1 }],
  // A search read by the index's matches until the page is full vs both readers taking turns of one message (findBySearch).
  'search by the index first vs both readers in turns of one': [{}, { searchTurnRows: 1 }],
  'background merges in small steps vs larger batches written directly': [{ compactAtMessages: 4, mergeStepRows: 5 }, { directAtMessages: 8, compactAtMessages: 16, compactSynchronously: true }],
};
/** The seeds run; UMDIFF_SEEDS="5-200" (or "7,9") runs others, to hunt longer after a change of layout. */
const SEEDS = seedsFrom(process.env.UMDIFF_SEEDS) ?? [1, 2, 3, 4];
/** Events per seed (each one position, most with one change); UMDIFF_EVENTS for longer runs. */
const EVENTS = Number(process.env.UMDIFF_EVENTS ?? 420);
/** Reads compared after every this many batches, and at the end. */
const CHECK_EVERY = 8;

const REALM = 1;
const OTHER_REALM = 2;
const USERS = [10, 11, 12, 13, 14, 15, 16, 17];
const OTHER_USERS = [90, 91];
/** A cross-realm bot (notification-bot): sends to channels, has no rows. */
const NOTIFICATION_BOT = 99;
const CHANNELS = [5, 6, 7, 8];
const OTHER_CHANNEL = 50;
const TOPICS = ['alpha', 'Alpha', 'beta', 'BETA', 'gamma', '✔ done', 'lunch', 'Lunch plans'];
const WORDS = ['pizza', 'noon', 'deploy', 'release', 'coffee', 'bug', 'hamlet', 'https://x.test'];
const READ = F.read;
const STARRED = F.starred;

function seedsFrom(spec: string | undefined): number[] | undefined {
  if (!spec) return undefined;
  return spec.split(',').flatMap((part) => {
    const [lo, hi] = part.split('-').map(Number);
    return hi === undefined ? [lo] : Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  });
}

class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  float(): number {
    return this.next();
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** Each item with probability p. */
  subset<T>(items: readonly T[], p: number): T[] {
    return items.filter(() => this.chance(p));
  }
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    const out: T[] = [];
    while (out.length < k && copy.length > 0) out.push(copy.splice(this.int(copy.length), 1)[0]);
    return out;
  }
  /** The topic spelled in another case now and then (topics compare case-insensitively). */
  recase(topic: string): string {
    const r = this.int(6);
    return r === 0 ? topic.toUpperCase() : r === 1 ? topic.toLowerCase() : topic;
  }
}

/** What the generator remembers of a message, to make later changes that fit it. */
type ModelMessage = {
  id: number;
  realmId: number;
  senderId: number;
  streamId: number | null;
  topic: string | null;
  dmKey: string | null;
  /** Users with a row (the store's rows, as far as the changes say). */
  rows: Set<number>;
  mentioned: number[];
  topicWildcard: number[];
  streamWildcard: boolean;
  alert: number[];
  deleted: boolean;
};

/** What the checks need to know of the messages made so far (the workload, or a replayed log). */
interface Known {
  /** Every id a message was ever created with, and some never used. */
  readonly idsEver: number[];
  readonly dmKeys: Set<string>;
  alive(filter?: (m: KnownMessage) => boolean): KnownMessage[];
}
type KnownMessage = { id: number; realmId: number; streamId: number | null; topic: string | null };

const anyId = (known: Known, rng: Random): number => (known.idsEver.length === 0 ? 1 : rng.pick(known.idsEver));

/** Some message ids: the user's, others', deleted ones, ones never used. */
function someIds(known: Known, max: number, rng: Random): number[] {
  const ids = rng.sample(known.idsEver, rng.between(1, max));
  if (rng.chance(0.2)) ids.push(Math.max(0, ...known.idsEver) + 7);
  return ids;
}

/** A flag selection of every shape the projection produces (selectionConditions). */
function drawSelector(known: Known, userId: number, rng: Random): FlagSelector {
  const channelTopic = () => {
    const m = rng.pick(known.alive((x) => x.streamId !== null && x.realmId === REALM)) as KnownMessage | undefined;
    return m ? { streamId: m.streamId!, topic: rng.recase(m.topic!) } : { streamId: rng.pick(CHANNELS), topic: rng.pick(TOPICS) };
  };
  switch (rng.int(10)) {
    case 0:
    case 1:
      return { messageIds: someIds(known, 6, rng) };
    case 2: {
      const [a, b] = [anyId(known, rng), anyId(known, rng)].sort((x, y) => x - y);
      return { minId: a, maxId: b };
    }
    case 3:
      return { maxId: anyId(known, rng) }; // "mark all as read up to"
    case 4:
      return { streamId: rng.pick(CHANNELS) };
    case 5:
      return channelTopic();
    case 6: {
      const mine = [...known.dmKeys].filter((k) => k.split(',').includes(String(userId)));
      return { dmKey: mine.length > 0 && rng.chance(0.8) ? rng.pick(mine) : rng.pick([...known.dmKeys, '10,11']) };
    }
    case 7:
      return {};
    case 8:
      return { streamId: rng.pick(CHANNELS), maxId: anyId(known, rng) };
    default:
      return { minId: anyId(known, rng) };
  }
}

/** The messages a log made, where its moves left them (to check a replayed log: see minimize). */
function knownFrom(events: PositionedChanges[]): Known {
  const messages = new Map<number, KnownMessage & { deleted: boolean }>();
  const idsEver: number[] = [];
  const dmKeys = new Set<string>();
  for (const event of events) {
    for (const change of event.changes) {
      if (change.type === 'message-added') {
        const { id, realmId, streamId, topic, dmKey } = change.message;
        if (!messages.has(id)) messages.set(id, { id, realmId, streamId, topic, deleted: false });
        idsEver.push(id);
        if (dmKey !== null) dmKeys.add(dmKey);
      } else if (change.type === 'messages-moved') {
        for (const id of change.messageIds) Object.assign(messages.get(id) ?? {}, { streamId: change.streamId, topic: change.topic });
      } else if (change.type === 'messages-deleted') {
        for (const id of change.messageIds) Object.assign(messages.get(id) ?? {}, { deleted: true });
      } else if (change.type === 'flags-changed') {
        idsEver.push(...(change.selector.messageIds ?? []));
      }
    }
  }
  return { idsEver, dmKeys, alive: (filter = () => true) => [...messages.values()].filter((m) => !m.deleted && filter(m)) };
}

/**
 * The workload: one organization of eight users and four channels whose subscribers change over
 * time, direct messages, and a few messages of a second organization; changes shaped like the
 * user-messages projection's (rowsOf, reactedChange, movedChange, editedChange).
 */
class Workload implements Known {
  readonly messages = new Map<number, ModelMessage>();
  /** Every id a message was ever created with, and some never used. */
  readonly idsEver: number[] = [];
  readonly dmKeys = new Set<string>();
  private readonly subscribers = new Map<number, Set<number>>();
  private nextId = 1;
  /** Ids skipped so far: a later message may take one (out of order, as concurrent senders do). */
  private readonly spare: number[] = [];
  private clock = 1_700_000_000;

  constructor(private readonly rng: Random) {
    for (const channel of CHANNELS) this.subscribers.set(channel, new Set(rng.sample(USERS, rng.between(2, 6))));
  }

  alive(filter: (m: ModelMessage) => boolean = () => true): ModelMessage[] {
    return [...this.messages.values()].filter((m) => !m.deleted && filter(m));
  }

  /** The changes of the next event (none for an event the store does not see, like a subscription). */
  next(): UserMessageChange[] {
    const r = this.rng.float();
    if (r < 0.3) return [this.channelMessage()];
    if (r < 0.33) return [this.otherRealmMessage()];
    if (r < 0.44) return [this.directMessage()];
    if (r < 0.5) {
      this.changeSubscription();
      return [];
    }
    if (r < 0.72) return [this.flagChange()];
    if (r < 0.77) return this.historical();
    if (r < 0.81) return this.topicMove();
    if (r < 0.84) return this.channelMove();
    if (r < 0.92) return this.edit();
    if (r < 0.95) return this.deletion();
    if (r < 0.97) return [this.channelMessage(), this.flagChange()]; // two changes at one position
    return [this.flagChange()];
  }

  private newId(streamId: number | null): number {
    if (streamId !== null && this.rng.chance(0.08)) {
      const newest = Math.max(0, ...this.alive((m) => m.streamId === streamId).map((m) => m.id));
      const index = this.spare.findIndex((id) => id < newest);
      if (index >= 0) return this.spare.splice(index, 1)[0];
    }
    const id = this.nextId++;
    if (this.rng.chance(0.12)) this.spare.push(this.nextId++);
    // Now and then a jump, so that message ids span more than a read window of the store.
    if (this.rng.chance(0.02)) this.nextId += this.rng.between(1000, 6000);
    return id;
  }

  private text(): { searchText: string; hasLink: boolean; hasImage: boolean; hasAttachment: boolean } {
    const words = this.rng.sample(WORDS, this.rng.between(1, 3));
    return { searchText: words.join(' '), hasLink: words.includes('https://x.test'), hasImage: this.rng.chance(0.1), hasAttachment: this.rng.chance(0.1) };
  }

  private remember(m: Omit<ModelMessage, 'deleted'>): void {
    this.messages.set(m.id, { ...m, deleted: false });
    this.idsEver.push(m.id);
    if (this.rng.chance(0.05)) this.idsEver.push(this.nextId + 50_000); // never a message
  }

  private channelMessage(): UserMessageChange {
    const streamId = this.rng.pick(CHANNELS);
    const subscribers = [...this.subscribers.get(streamId)!];
    const bot = this.rng.chance(0.03);
    const sender = bot ? NOTIFICATION_BOT : subscribers.length > 0 && !this.rng.chance(0.08) ? this.rng.pick(subscribers) : this.rng.pick(USERS);
    const recipients = new Set(subscribers);
    if (!bot) recipients.add(sender); // an unsubscribed sender still gets a (read) row; a cross-realm bot none
    if (this.rng.chance(0.07)) {
      // Rows that differ from the subscribers: one left out, or someone else in.
      if (this.rng.chance(0.5) && recipients.size > 1) recipients.delete(this.rng.pick([...recipients].filter((u) => u !== sender)));
      else recipients.add(this.rng.pick(USERS));
    }
    const mentioned = this.rng.chance(0.25) ? this.rng.sample(USERS, this.rng.between(1, 2)) : [];
    const streamWildcard = this.rng.chance(0.08);
    const topicWildcard = this.rng.chance(0.05) ? this.rng.sample([...recipients], 2) : [];
    const alert = this.rng.chance(0.1) ? [this.rng.pick([...recipients])] : [];
    const rows: UserMessageRow[] = [...recipients].map((userId) => {
      let flags = streamWildcard ? F.stream_wildcard_mentioned : 0;
      if (userId === sender) flags |= READ;
      if (mentioned.includes(userId)) flags |= F.mentioned;
      if (topicWildcard.includes(userId)) flags |= F.topic_wildcard_mentioned;
      if (alert.includes(userId)) flags |= F.has_alert_word;
      return { userId, flags };
    });
    const id = this.newId(streamId);
    const topic = this.rng.recase(this.rng.pick(TOPICS));
    this.remember({ id, realmId: REALM, senderId: sender, streamId, topic, dmKey: null, rows: new Set(recipients), mentioned, topicWildcard, streamWildcard, alert });
    return { type: 'message-added', message: { id, realmId: REALM, senderId: sender, streamId, topic, dmKey: null, ...this.text() }, rows };
  }

  private otherRealmMessage(): UserMessageChange {
    const sender = this.rng.pick(OTHER_USERS);
    const id = this.newId(OTHER_CHANNEL);
    const topic = this.rng.pick(TOPICS);
    this.remember({ id, realmId: OTHER_REALM, senderId: sender, streamId: OTHER_CHANNEL, topic, dmKey: null, rows: new Set(OTHER_USERS), mentioned: [], topicWildcard: [], streamWildcard: false, alert: [] });
    return {
      type: 'message-added',
      message: { id, realmId: OTHER_REALM, senderId: sender, streamId: OTHER_CHANNEL, topic, dmKey: null, ...this.text() },
      rows: OTHER_USERS.map((userId) => ({ userId, flags: userId === sender ? READ : 0 })),
    };
  }

  private directMessage(): UserMessageChange {
    const sender = this.rng.pick(USERS);
    const others = this.rng.chance(0.08) ? [] : this.rng.sample(USERS.filter((u) => u !== sender), this.rng.between(1, 2));
    const participants = [sender, ...others];
    const dmKey = directConversationKey(participants);
    this.dmKeys.add(dmKey);
    const mentioned = this.rng.chance(0.15) ? [this.rng.pick(participants)] : [];
    const id = this.newId(null);
    this.remember({ id, realmId: REALM, senderId: sender, streamId: null, topic: null, dmKey, rows: new Set(participants), mentioned, topicWildcard: [], streamWildcard: false, alert: [] });
    return {
      type: 'message-added',
      message: { id, realmId: REALM, senderId: sender, streamId: null, topic: null, dmKey, ...this.text() },
      rows: participants.map((userId) => ({ userId, flags: F.is_private | (userId === sender ? READ : 0) | (mentioned.includes(userId) ? F.mentioned : 0) })),
    };
  }

  /** Subscribe, unsubscribe or resubscribe: later messages of the channel go to the new set. */
  private changeSubscription(): void {
    const subscribers = this.subscribers.get(this.rng.pick(CHANNELS))!;
    const user = this.rng.pick(USERS);
    if (subscribers.has(user)) subscribers.delete(user);
    else subscribers.add(user);
  }

  private flagChange(): UserMessageChange {
    const userId = this.rng.chance(0.04) ? this.rng.pick(OTHER_USERS) : this.rng.pick(USERS);
    const r = this.rng.float();
    const mask = r < 0.55 ? READ : r < 0.95 ? STARRED : F.collapsed;
    return { type: 'flags-changed', userId, selector: drawSelector(this, userId, this.rng), op: this.rng.chance(0.7) ? 'add' : 'remove', mask };
  }

  /** Historical rows: a reaction to a channel message without a row (reactedChange), or starring some. */
  private historical(): UserMessageChange[] {
    const userId = this.rng.pick(USERS);
    const candidates = this.alive((m) => m.streamId !== null && m.realmId === REALM && !m.rows.has(userId));
    if (candidates.length === 0) return [];
    if (this.rng.chance(0.7)) {
      const m = this.rng.pick(candidates);
      m.rows.add(userId);
      return [{ type: 'flags-changed', userId, selector: { messageIds: [m.id], createHistorical: [m.id] }, op: 'add', mask: READ }];
    }
    const picked = this.rng.sample(candidates, 3);
    for (const m of picked) m.rows.add(userId);
    // Now and then one the user has a row for by now (a race): it is left alone, whichever table holds it.
    const held = this.rng.chance(0.4) ? this.rng.sample(this.alive((m) => m.realmId === REALM && m.rows.has(userId)).slice(-5), 2) : [];
    const historical = [...picked.map((m) => m.id), ...held.map((m) => m.id)];
    return [{ type: 'flags-changed', userId, selector: { messageIds: [...historical, anyId(this, this.rng)], createHistorical: historical }, op: 'add', mask: STARRED }];
  }

  /** The messages a move takes: one, this one and later ones of its topic, or the whole topic. */
  private movedSet(m: ModelMessage): ModelMessage[] {
    const topic = this.alive((x) => x.realmId === m.realmId && x.streamId === m.streamId && x.topic!.toLowerCase() === m.topic!.toLowerCase());
    const r = this.rng.int(3);
    return r === 0 ? [m] : r === 1 ? topic.filter((x) => x.id >= m.id) : topic;
  }

  private history(target: number) {
    this.clock += this.rng.between(1, 600);
    return { userId: this.rng.pick(USERS), timestamp: this.clock, targetMessageId: target };
  }

  private topicMove(): UserMessageChange[] {
    const candidates = this.alive((x) => x.streamId !== null && x.realmId === REALM);
    if (candidates.length === 0) return [];
    const m = this.rng.pick(candidates);
    const moved = this.movedSet(m);
    const topic = this.rng.recase(this.rng.pick(TOPICS));
    for (const x of moved) x.topic = topic;
    const change: UserMessageChange = { type: 'messages-moved', messageIds: moved.map((x) => x.id), streamId: m.streamId!, topic };
    if (this.rng.chance(0.9)) change.history = this.history(m.id);
    return [change];
  }

  /** A move to another channel: users who cannot read it lose their rows, its subscribers gain read ones (movedChange). */
  private channelMove(): UserMessageChange[] {
    const candidates = this.alive((x) => x.streamId !== null && x.realmId === REALM);
    if (candidates.length === 0) return [];
    const m = this.rng.pick(candidates);
    const from = m.streamId!;
    const to = this.rng.pick(CHANNELS.filter((c) => c !== from));
    const moved = this.movedSet(m);
    const fromSubs = this.subscribers.get(from)!;
    const toSubs = this.subscribers.get(to)!;
    const gaining = [...toSubs].filter((u) => !fromSubs.has(u));
    const losing = this.rng.chance(0.5) ? [...fromSubs].filter((u) => !toSubs.has(u)) : [];
    const topic = this.rng.chance(0.5) ? m.topic! : this.rng.recase(this.rng.pick(TOPICS));
    for (const x of moved) {
      x.streamId = to;
      x.topic = topic;
      for (const u of losing) x.rows.delete(u);
      for (const u of gaining) x.rows.add(u);
    }
    const change: UserMessageChange = { type: 'messages-moved', messageIds: moved.map((x) => x.id), streamId: to, topic, history: this.history(m.id) };
    if (losing.length > 0) change.removeRowsOf = losing;
    if (gaining.length > 0) change.addRows = { userIds: gaining, flags: READ };
    return [change];
  }

  /** A content edit: new mentions, channel wildcard, alert words; with or without what was there before (editedChange). */
  private edit(): UserMessageChange[] {
    const candidates = this.alive((x) => x.realmId === REALM);
    if (candidates.length === 0) return [];
    const m = this.rng.pick(candidates);
    const members = [...m.rows];
    const mentioned = this.rng.chance(0.4) ? this.rng.sample(USERS, this.rng.between(1, 3)) : [];
    const streamWildcard = m.streamId !== null && this.rng.chance(0.2);
    const topicWildcard = m.streamId !== null && this.rng.chance(0.15) ? this.rng.sample(members, 2) : [];
    const change: UserMessageChange = { type: 'message-edited', messageId: m.id, ...this.text(), mentionedUserIds: mentioned, streamWildcardMentioned: streamWildcard, topicWildcardMentionedUserIds: topicWildcard };
    if (this.rng.chance(0.6)) {
      change.previouslyMentionedUserIds = [...new Set([...m.mentioned, ...m.topicWildcard])].sort((a, b) => a - b);
      change.previousStreamWildcard = m.streamWildcard;
    }
    if (this.rng.chance(0.5)) {
      const alert = this.rng.chance(0.5) && members.length > 0 ? [this.rng.pick(members)] : [];
      change.alertWords = { userIds: alert, previousUserIds: m.alert };
      m.alert = alert;
    }
    Object.assign(m, { mentioned, topicWildcard, streamWildcard });
    return [change];
  }

  private deletion(): UserMessageChange[] {
    const candidates = this.alive();
    if (candidates.length === 0) return [];
    const gone = this.rng.sample(candidates, this.rng.chance(0.85) ? 1 : 3);
    for (const m of gone) m.deleted = true;
    return [{ type: 'messages-deleted', messageIds: gone.map((m) => m.id) }];
  }
}

/** Throws, naming the context, when the two answers differ (the harness's one comparison). */
function same(context: string, a: unknown, b: unknown): void {
  try {
    expect(a).toStrictEqual(b);
  } catch (error) {
    throw new Error(`stores disagree: ${context}\n${(error as Error).message}`);
  }
}

const term = (condition: NarrowCondition, negated = false): NarrowTerm => ({ ...condition, negated }) as NarrowTerm;
const mapEntries = <V>(map: Map<number, V>): [number, V][] => [...map.entries()].sort((x, y) => x[0] - y[0]);
/** unreadCounts lists topics and conversations in an order the port leaves open. */
const normalCounts = (counts: UnreadCounts): UnreadCounts => ({
  ...counts,
  topics: [...counts.topics].sort((x, y) => x.streamId - y.streamId || (x.topic.toLowerCase() < y.topic.toLowerCase() ? -1 : x.topic.toLowerCase() > y.topic.toLowerCase() ? 1 : 0)),
  conversations: [...counts.conversations].sort((x, y) => (x.dmKey < y.dmKey ? -1 : x.dmKey > y.dmKey ? 1 : 0)),
});

/** The narrows compared, drawn from what the workload made (their topics, conversations, words). */
function narrows(work: Known, rng: Random): { name: string; terms: NarrowTerm[] }[] {
  const stream = rng.pick(CHANNELS);
  const channelMessages = work.alive((m) => m.streamId !== null && m.realmId === REALM);
  const ref = (): ChannelTopicRef => {
    const m = channelMessages.length > 0 && rng.chance(0.8) ? rng.pick(channelMessages) : undefined;
    return m ? { streamId: m.streamId!, topic: rng.recase(m.topic!) } : { streamId: rng.pick(CHANNELS), topic: rng.pick(TOPICS) };
  };
  const topic = ref();
  const dmKey = work.dmKeys.size > 0 ? rng.pick([...work.dmKeys]) : '10,11';
  const ids = rng.sample(work.idsEver, 6);
  const muted: NarrowCondition = { kind: 'muted', mutedTopics: [ref(), ref()], mutedStreamIds: [rng.pick(CHANNELS)], visibleTopics: [ref()] };
  const all: { name: string; terms: NarrowTerm[] }[] = [
    { name: 'no terms', terms: [] },
    { name: `stream ${stream}`, terms: [term({ kind: 'stream', streamId: stream })] },
    { name: `stream ${topic.streamId} topic ${topic.topic}`, terms: [term({ kind: 'stream', streamId: topic.streamId }), term({ kind: 'topic', topic: topic.topic })] },
    { name: 'is:unread', terms: [term({ kind: 'flags', mask: READ, set: 'none' })] },
    { name: 'not is:unread', terms: [term({ kind: 'flags', mask: READ, set: 'none' }, true)] },
    { name: 'read all', terms: [term({ kind: 'flags', mask: READ, set: 'all' })] },
    { name: 'is:starred', terms: [term({ kind: 'flags', mask: STARRED, set: 'all' })] },
    { name: 'is:mentioned', terms: [term({ kind: 'flags', mask: MENTION_FLAGS_MASK, set: 'any' })] },
    { name: 'is:dm', terms: [term({ kind: 'is-dm' })] },
    { name: 'not is:dm', terms: [term({ kind: 'is-dm' }, true)] },
    { name: `dm ${dmKey}`, terms: [term({ kind: 'dm', dmKey })] },
    { name: `dm-including ${dmKey.split(',')[0]}`, terms: [term({ kind: 'dm-including', userId: Number(dmKey.split(',')[0]) })] },
    { name: 'sender', terms: [term({ kind: 'sender', userId: rng.pick(USERS) })] },
    { name: 'search', terms: [term({ kind: 'search', ...parseSearchQuery(rng.pick(WORDS)) })] },
    { name: `search stream ${stream}`, terms: [term({ kind: 'search', ...parseSearchQuery(rng.pick(WORDS)) }), term({ kind: 'stream', streamId: stream })] },
    { name: `not stream ${stream}`, terms: [term({ kind: 'stream', streamId: stream }, true)] },
    { name: 'streams', terms: [term({ kind: 'streams', streamIds: rng.sample(CHANNELS, 2) })] },
    { name: 'topics', terms: [term({ kind: 'topics', topics: [ref(), ref()] })] },
    { name: 'is:muted', terms: [term(muted)] },
    { name: 'in:home', terms: [term(muted, true)] },
    { name: 'ids', terms: [term({ kind: 'ids', ids })] },
    { name: 'id', terms: [term({ kind: 'id', id: ids[0] ?? 1 })] },
    { name: 'has:link', terms: [term({ kind: 'has', what: 'link' })] },
    { name: 'is:resolved', terms: [term({ kind: 'resolved' })] },
    { name: `stream ${stream} is:unread`, terms: [term({ kind: 'stream', streamId: stream }), term({ kind: 'flags', mask: READ, set: 'none' })] },
    { name: 'is:dm is:unread', terms: [term({ kind: 'is-dm' }), term({ kind: 'flags', mask: READ, set: 'none' })] },
    { name: `stream ${stream} is:starred`, terms: [term({ kind: 'stream', streamId: stream }), term({ kind: 'flags', mask: STARRED, set: 'any' })] },
    { name: 'is:mentioned is:unread', terms: [term({ kind: 'flags', mask: MENTION_FLAGS_MASK, set: 'any' }), term({ kind: 'flags', mask: READ, set: 'none' })] },
  ];
  return all;
}

/**
 * The two stores, and a second instance of the second on its own connection to the same file
 * (another process of the split layout: whatever one instance keeps in memory must not make the
 * other answer differently), which only reads. `restart` replaces the second store's writer by a
 * new instance, as a restarted process does.
 */
type Pair = { a: UserMessageStorePort; b: UserMessageStorePort; bReader: UserMessageStorePort; restart(): Promise<void>; close(): Promise<void> };

async function openPair(options: [StoreOptions, StoreOptions]): Promise<Pair> {
  const dir = makeTempDir('umdiff-');
  const files = options.map((_, i) => join(dir.path, `store-${i}.sqlite`));
  const open = async (file: string, opts: StoreOptions) => {
    const db = openSqlite(file);
    const store = new SqliteUserMessageStore(db, { ...opts } as SqliteUserMessageStoreOptions);
    await store.prepare();
    return { db, store };
  };
  const a = await open(files[0], options[0]);
  let b = await open(files[1], options[1]);
  const reader = await open(files[1], options[1]);
  const pair: Pair = {
    a: a.store,
    b: b.store,
    bReader: reader.store,
    restart: async () => {
      await b.store.close();
      b.db.close();
      b = await open(files[1], options[1]);
      pair.b = b.store;
    },
    close: async () => {
      for (const { db, store } of [a, b, reader]) {
        await store.close();
        db.close();
      }
      dir.remove();
    },
  };
  return pair;
}

/** Every read of the port, for every user, on both stores. */
async function compareAll(work: Known, pair: Pair, rng: Random, where: string): Promise<void> {
  const { a } = pair;
  const reader = rng.chance(0.5);
  const b = reader ? pair.bReader : pair.b;
  where = `${where}, second store read through ${reader ? 'its other instance' : 'its writer'}`;
  const both = async <T>(what: string, read: (store: UserMessageStorePort) => Promise<T>, normal: (x: T) => unknown = (x) => x) =>
    same(`${where}: ${what}`, normal(await read(a)), normal(await read(b)));
  const ids = [...new Set(work.idsEver)].sort((x, y) => x - y);
  const newest = ids.length > 0 ? ids[ids.length - 1] : 1;
  await both('maxMessageId(realm)', (s) => s.maxMessageId(REALM));
  await both('maxMessageId(other realm)', (s) => s.maxMessageId(OTHER_REALM));
  await both('locationsOf(all ids)', (s) => s.locationsOf(ids), mapEntries);
  for (const channel of CHANNELS) {
    await both(`topicsOf(${channel})`, (s) => s.topicsOf(REALM, channel));
    for (const topic of TOPICS) {
      await both(`topicParticipants(${channel}, ${topic})`, (s) => s.topicParticipants(REALM, channel, topic), (x) => [...x].sort((p, q) => p - q));
      await both(`topicHasMessages(${channel}, ${topic})`, (s) => s.topicHasMessages(REALM, channel, topic));
    }
  }
  await both('topicsOf(other realm)', (s) => s.topicsOf(OTHER_REALM, OTHER_CHANNEL));
  for (const id of rng.sample(ids, 12)) {
    await both(`usersWithFlags(${id}, read)`, (s) => s.usersWithFlags(id, [...USERS, ...OTHER_USERS], READ));
    await both(`usersWithFlags(${id}, starred)`, (s) => s.usersWithFlags(id, [...USERS, ...OTHER_USERS], STARRED));
  }
  const anchor = () => (ids.length > 0 ? rng.pick(ids) : 1);
  for (const userId of [...USERS, OTHER_USERS[0]]) {
    const realmId = OTHER_USERS.includes(userId) ? OTHER_REALM : REALM;
    const u = `user ${userId}`;
    await both(`${u} flagsFor(all ids)`, (s) => s.flagsFor(userId, ids), mapEntries);
    await both(`${u} unreadCounts`, (s) => s.unreadCounts(userId), normalCounts);
    await both(`${u} unreadMessages(5)`, (s) => s.unreadMessages(userId, 5));
    await both(`${u} unreadMessages(1000)`, (s) => s.unreadMessages(userId, 1000));
    await both(`${u} maxMessageId`, (s) => s.maxMessageId(realmId, userId));
    for (const channel of CHANNELS) {
      await both(`${u} topicsOf(${channel})`, (s) => s.topicsOf(REALM, channel, userId));
      const topic = rng.recase(rng.pick(TOPICS));
      await both(`${u} topicHasMessages(${channel}, ${topic})`, (s) => s.topicHasMessages(REALM, channel, topic, userId));
    }
    for (let i = 0; i < 4; i++) {
      const selector = drawSelector(work, userId, rng);
      const op = rng.chance(0.5) ? 'add' : 'remove';
      const mask = rng.pick([READ, STARRED]);
      await both(`${u} countFlagChanges(${JSON.stringify(selector)}, ${op}, ${mask})`, (s) => s.countFlagChanges(userId, selector, op, mask));
    }
    const all = narrows(work, rng);
    const chosen = [all[0], ...rng.sample(all.slice(1), 9)];
    for (const narrow of chosen) {
      const at = anchor();
      const ranges: MessageRange[] = [
        { direction: 'newer', fromId: 0, limit: 1000 },
        { direction: 'older', fromId: newest + 10, limit: 1000 },
        { direction: 'older', fromId: at, limit: rng.between(1, 4) },
        { direction: 'newer', fromId: at, limit: rng.between(1, 4) },
      ];
      for (const scope of ['user', 'history'] as const) {
        for (const range of ranges) {
          const query = { realmId, userId, scope, terms: narrow.terms };
          await both(`${u} findMessages(${scope}, ${narrow.name} ${JSON.stringify(narrow.terms)}, ${range.direction} from ${range.fromId} limit ${range.limit})`, (s) =>
            s.findMessages(query, range),
          );
        }
      }
    }
  }
}

/** The cheap part, after every batch (so that a disagreement names the batch that made it): every user's flags and unread counts. */
async function compareRows(work: Known, pair: Pair, where: string): Promise<void> {
  const ids = [...new Set(work.idsEver)];
  for (const userId of [...USERS, ...OTHER_USERS]) {
    const flags = mapEntries(await pair.a.flagsFor(userId, ids));
    const counts = normalCounts(await pair.a.unreadCounts(userId));
    for (const [name, b] of [['writer', pair.b], ['other instance', pair.bReader]] as const) {
      same(`${where}: user ${userId} flagsFor(all ids), second store's ${name}`, flags, mapEntries(await b.flagsFor(userId, ids)));
      same(`${where}: user ${userId} unreadCounts, second store's ${name}`, counts, normalCounts(await b.unreadCounts(userId)));
    }
  }
}

const CHECKPOINT = 'user_messages';

/**
 * Replays a log (its batches, keeping only the events at `keep` positions) into a fresh pair,
 * then compares: the rows, every read (three draws of queries), and again after the second
 * store is rebuilt from the kept events in one batch. The disagreement found, if any.
 */
async function replayDisagreement(options: [StoreOptions, StoreOptions], log: PositionedChanges[][], keep: Set<bigint>): Promise<string | undefined> {
  const pair = await openPair(options);
  try {
    const kept: PositionedChanges[] = [];
    for (const delivered of log) {
      const batch = delivered.filter((p) => keep.has(p.position));
      if (batch.length === 0) continue;
      kept.push(...batch);
      const checkpoint = { name: CHECKPOINT, position: batch[batch.length - 1].position };
      await pair.a.apply(batch, checkpoint);
      await pair.b.apply(batch, checkpoint);
    }
    const events = [...new Map(kept.map((p) => [p.position, p])).values()].sort((x, y) => (x.position < y.position ? -1 : 1));
    const known = knownFrom(events);
    const check = async (where: string) => {
      await compareRows(known, pair, where);
      for (const seed of [1, 2, 3]) await compareAll(known, pair, new Random(seed), where);
    };
    await check('replay');
    await pair.b.reset(CHECKPOINT);
    if (events.length > 0) await pair.b.apply(events, { name: CHECKPOINT, position: events[events.length - 1].position });
    await check('replay, second store rebuilt in one batch');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await pair.close();
  }
}

/**
 * UMDIFF_MINIMIZE=1: after a failure, the fewest events (positions) that still make the stores
 * disagree (ddmin over the log's events, their batches kept), within a budget of replays.
 */
async function minimize(options: [StoreOptions, StoreOptions], log: PositionedChanges[][]): Promise<{ events: PositionedChanges[]; disagreement: string } | undefined> {
  let keep = [...new Set(log.flat().map((p) => p.position))];
  let disagreement = await replayDisagreement(options, log, new Set(keep));
  if (disagreement === undefined) return undefined;
  let n = 2;
  for (let budget = 600; keep.length >= 2 && budget > 0; ) {
    const chunk = Math.ceil(keep.length / n);
    let reduced = false;
    for (let i = 0; i < keep.length && budget > 0; i += chunk, budget--) {
      const candidate = [...keep.slice(0, i), ...keep.slice(i + chunk)];
      const found = await replayDisagreement(options, log, new Set(candidate));
      if (found !== undefined) {
        [keep, disagreement, reduced, n] = [candidate, found, true, Math.max(n - 1, 2)];
        break;
      }
    }
    if (!reduced) {
      if (n >= keep.length) break;
      n = Math.min(keep.length, n * 2);
    }
  }
  const kept = new Set(keep);
  const events = [...new Map(log.flat().filter((p) => kept.has(p.position)).map((p) => [p.position, p])).values()];
  return { events, disagreement };
}

const json = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));

async function runSeed(pairName: string, options: [StoreOptions, StoreOptions], seed: number): Promise<void> {
  const rng = new Random(seed);
  const work = new Workload(rng);
  const pair = await openPair(options);
  const log: PositionedChanges[][] = [];
  let position = 0n;
  let previous: PositionedChanges[] = [];
  try {
    for (let batchIndex = 0, events = 0; events < EVENTS; batchIndex++) {
      const size = rng.chance(0.03) ? rng.between(30, 80) : rng.between(1, 20);
      const batch: PositionedChanges[] = [];
      for (let i = 0; i < size; i++) batch.push({ position: ++position, changes: work.next() });
      events += size;
      // Now and then the previous batch is delivered again with this one (skipped: at or below the checkpoint).
      const delivered = rng.chance(0.05) ? [...previous, ...batch] : batch;
      log.push(delivered);
      const checkpoint = { name: CHECKPOINT, position };
      await pair.a.apply(delivered, checkpoint);
      await pair.b.apply(delivered, checkpoint);
      previous = batch;
      // Now and then the second store's process restarts (its file stays).
      if (rng.chance(0.04)) await pair.restart();
      const where = `${pairName}, seed ${seed}, batch ${batchIndex} (positions up to ${position})`;
      same(`${where}: getCheckpoint`, await pair.a.getCheckpoint(CHECKPOINT), await pair.b.getCheckpoint(CHECKPOINT));
      await compareRows(work, pair, where);
      if (batchIndex % CHECK_EVERY === CHECK_EVERY - 1 || events >= EVENTS) await compareAll(work, pair, new Random(seed * 1000 + batchIndex), where);
    }
    // A rebuild: the second store forgets everything and takes the whole log again in batches of
    // other sizes (a catch-up's), and must answer like the first, built live.
    await pair.b.reset(CHECKPOINT);
    const events = [...new Map(log.flat().map((p) => [p.position, p])).values()].sort((x, y) => (x.position < y.position ? -1 : 1));
    for (let from = 0; from < events.length; ) {
      const chunk = events.slice(from, (from += rng.chance(0.5) ? rng.between(1, 40) : rng.between(100, 300)));
      await pair.b.apply(chunk, { name: CHECKPOINT, position: chunk[chunk.length - 1].position });
    }
    const where = `${pairName}, seed ${seed}, after the second store was rebuilt from the whole log`;
    same(`${where}: getCheckpoint`, await pair.a.getCheckpoint(CHECKPOINT), await pair.b.getCheckpoint(CHECKPOINT));
    await compareRows(work, pair, where);
    await compareAll(work, pair, new Random(seed * 1000 + 999), where);
  } catch (error) {
    const base = join(tmpdir(), `umdiff-${pairName.replace(/\W+/g, '-')}-seed-${seed}`);
    writeFileSync(`${base}.json`, json(log));
    let report = `${(error as Error).message}\n(change log, batch by batch: ${base}.json; UMDIFF_MINIMIZE=1 to minimize it)`;
    if (process.env.UMDIFF_MINIMIZE) {
      await pair.close().catch(() => undefined);
      const minimal = await minimize(options, log);
      if (minimal === undefined) report += '\nminimize: a replay of the log (original batches, no restarts) did not disagree';
      else {
        writeFileSync(`${base}.minimal.json`, json(minimal.events));
        report += `\nminimized to ${minimal.events.length} events (${base}.minimal.json), which give:\n${minimal.disagreement}`;
        if (minimal.events.length <= 30) report += `\n${minimal.events.map((e) => json(e)).join('\n')}`;
      }
    }
    throw new Error(report);
  } finally {
    await pair.close().catch(() => undefined);
  }
}

describe('SqliteUserMessageStore: differential (two configurations, the same changes, the same answers)', () => {
  jest.setTimeout(process.env.UMDIFF_MINIMIZE ? 30 * 60_000 : 60_000);
  for (const [pairName, options] of Object.entries(PAIRS)) {
    describe(pairName, () => {
      for (const seed of SEEDS) it(`seed ${seed}`, () => runSeed(pairName, options, seed));
    });
  }
});

describe('the differential harness', () => {
  it('accepts equal answers and rejects different ones, naming the query', () => {
    expect(() => same('q', { topics: [], total: 1 }, { topics: [], total: 1 })).not.toThrow();
    expect(() => same('seed 7, batch 3: unreadCounts', { total: 1 }, { total: 2 })).toThrow(/stores disagree: seed 7, batch 3: unreadCounts/);
    expect(() => same('q', mapEntries(new Map([[1, 3]])), mapEntries(new Map([[1, 1]])))).toThrow();
    expect(() => same('q', [{ id: 1, flags: null }], [{ id: 1, flags: 0 }])).toThrow();
    expect(() => same('q', [1, 2], [2, 1])).toThrow(); // order counts where the port defines it
  });

  it('normalises only what the port leaves unordered', () => {
    const counts = (topics: UnreadCounts['topics']): UnreadCounts => ({ topics, conversations: [], mentioned: 0, total: 2 });
    const x = counts([{ streamId: 5, topic: 'b', count: 1 }, { streamId: 5, topic: 'a', count: 1 }]);
    const y = counts([{ streamId: 5, topic: 'a', count: 1 }, { streamId: 5, topic: 'b', count: 1 }]);
    expect(() => same('q', normalCounts(x), normalCounts(y))).not.toThrow();
    expect(() => same('q', normalCounts(x), normalCounts(counts([{ streamId: 5, topic: 'A', count: 1 }, { streamId: 5, topic: 'b', count: 1 }])))).toThrow();
  });

  it('draws the same workload from the same seed', () => {
    const draw = (seed: number) => {
      const work = new Workload(new Random(seed));
      return Array.from({ length: 200 }, () => work.next());
    };
    expect(draw(5)).toEqual(draw(5));
    expect(draw(5)).not.toEqual(draw(6));
  });
});
