import { randomUUID } from 'node:crypto';
import type { IndexedMessage, MessageQuery, NarrowCondition, NarrowTerm, UserMessageChange, UserMessageStorePort } from '@app/application';
import { MESSAGE_FLAG_BITS as F, MENTION_FLAGS_MASK, parseSearchQuery } from '@app/domain';

export type UserMessageStoreFixture = { store: UserMessageStorePort; cleanup(): Promise<void> };

const REALM = 1;
const HAMLET = 10;
const CORDELIA = 11;
const IAGO = 2;

/** The behaviour every UserMessageStorePort adapter must have. */
export function userMessageStoreContract(adapterName: string, open: () => Promise<UserMessageStoreFixture>) {
  describe(`UserMessageStorePort contract: ${adapterName}`, () => {
    let fixture: UserMessageStoreFixture;
    let store: UserMessageStorePort;
    let checkpoint: string;
    let position: bigint;

    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
      await store.prepare();
      await store.prepare(); // idempotent
    });
    afterAll(async () => fixture.cleanup());
    beforeEach(async () => {
      checkpoint = `um_${randomUUID().slice(0, 8)}`;
      position = 0n;
      await store.reset(checkpoint);
    });

    const message = (id: number, overrides: Partial<IndexedMessage> = {}): IndexedMessage => ({
      id, realmId: REALM, senderId: HAMLET, streamId: 5, topic: 'greetings', dmKey: null,
      hasLink: false, hasImage: false, hasAttachment: false, searchText: `message ${id}`, ...overrides,
    });
    const added = (m: IndexedMessage, rows: [number, number][]): UserMessageChange => ({
      type: 'message-added', message: m, rows: rows.map(([userId, flags]) => ({ userId, flags })),
    });
    /** Applies each change as one event at the next position. */
    const apply = async (...changes: UserMessageChange[]) => {
      const batches = changes.map((c) => ({ position: ++position, changes: [c] }));
      await store.apply(batches, { name: checkpoint, position });
    };
    const ids = async (query: Partial<MessageQuery> & { terms?: NarrowTerm[] }, direction: 'older' | 'newer' = 'newer', fromId = 0, limit = 1000) =>
      (await store.findMessages({ realmId: REALM, userId: HAMLET, scope: 'user', terms: [], ...query }, { direction, fromId, limit })).map((m) => m.id);
    const term = (t: NarrowCondition, negated = false): NarrowTerm => ({ ...t, negated });
    /** A search as the narrow resolver makes it (words folded, stop words out, quoted phrases). */
    const search = (operand: string): NarrowTerm => ({ kind: 'search', ...parseSearchQuery(operand), negated: false });

    /** A small organization: channel 5 ("greetings", "Lunch", resolved topic), channel 6, direct messages. */
    const seed = async () =>
      apply(
        added(message(1), [[HAMLET, F.read], [CORDELIA, 0]]),
        added(message(2, { senderId: CORDELIA, topic: 'Lunch', searchText: 'Pizza at noon https://x.test', hasLink: true }), [[HAMLET, F.mentioned], [CORDELIA, F.read]]),
        added(message(3, { streamId: 6, topic: 'other', searchText: 'pizza again' }), [[CORDELIA, F.read]]),
        added(message(4, { streamId: null, topic: null, dmKey: '10,11', senderId: CORDELIA, searchText: 'psst' }), [[HAMLET, F.is_private], [CORDELIA, F.read | F.is_private]]),
        added(message(5, { streamId: null, topic: null, dmKey: '2,10,11', senderId: IAGO, hasImage: true, hasAttachment: true }), [[HAMLET, F.is_private | F.starred], [CORDELIA, F.is_private], [IAGO, F.read | F.is_private]]),
        added(message(6, { topic: '✔ done', searchText: 'finished' }), [[HAMLET, 0], [CORDELIA, F.stream_wildcard_mentioned]]),
        added(message(7, { realmId: 2, streamId: 50, topic: 'elsewhere' }), [[99, 0]]),
      );

    it('inserts every recipient\'s row with its flags at once', async () => {
      await seed();
      expect(await store.flagsFor(HAMLET, [1, 2, 3, 4, 5, 6, 404])).toEqual(
        new Map([[1, F.read], [2, F.mentioned], [4, F.is_private], [5, F.is_private | F.starred], [6, 0]]),
      );
      expect(await store.flagsFor(HAMLET, [])).toEqual(new Map());
      expect(await store.getCheckpoint(checkpoint)).toBe(7n);
    });

    it('skips changes at or below its checkpoint and never moves it backwards', async () => {
      await apply(added(message(1), [[HAMLET, 0]]));
      await store.apply([{ position: 1n, changes: [{ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [1] }, op: 'add', mask: F.starred }] }], { name: checkpoint, position: 1n });
      await store.apply([], { name: checkpoint, position: 0n });
      expect(await store.flagsFor(HAMLET, [1])).toEqual(new Map([[1, 0]]));
      expect(await store.getCheckpoint(checkpoint)).toBe(1n);
    });

    it('adds a message once: a replayed send changes nothing, keeping later flag changes', async () => {
      await apply(added(message(1), [[HAMLET, 0]]), { type: 'flags-changed', userId: HAMLET, selector: { messageIds: [1] }, op: 'add', mask: F.read });
      await apply(added(message(1, { searchText: 'replayed' }), [[HAMLET, 0], [CORDELIA, 0]]));
      expect(await store.flagsFor(HAMLET, [1])).toEqual(new Map([[1, F.read]]));
      expect(await store.flagsFor(CORDELIA, [1])).toEqual(new Map());
      expect(await ids({ terms: [search('replayed')] })).toEqual([]);
    });

    describe('flag changes', () => {
      beforeEach(seed);
      const flagsOf = async (userId: number) => Object.fromEntries(await store.flagsFor(userId, [1, 2, 3, 4, 5, 6]));

      it('adds and removes a flag over a list of ids, counting what would change first', async () => {
        expect(await store.countFlagChanges(HAMLET, { messageIds: [1, 2, 6, 404] }, 'add', F.read)).toBe(2);
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [1, 2, 6, 404] }, op: 'add', mask: F.read });
        expect(await flagsOf(HAMLET)).toMatchObject({ 1: F.read, 2: F.mentioned | F.read, 6: F.read });
        expect(await store.countFlagChanges(HAMLET, { messageIds: [1, 2] }, 'remove', F.read)).toBe(2);
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [1] }, op: 'remove', mask: F.read });
        expect(await flagsOf(HAMLET)).toMatchObject({ 1: 0, 2: F.mentioned | F.read });
        expect(await flagsOf(CORDELIA)).toMatchObject({ 1: 0, 2: F.read }); // another user's rows are untouched
      });

      it('selects by id range, channel, topic (case-insensitively) and conversation', async () => {
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { minId: 2, maxId: 5 }, op: 'add', mask: F.starred });
        expect(await flagsOf(HAMLET)).toMatchObject({ 1: F.read, 2: F.mentioned | F.starred, 4: F.is_private | F.starred, 6: 0 });
        await apply({ type: 'flags-changed', userId: CORDELIA, selector: { streamId: 5, topic: 'LUNCH' }, op: 'remove', mask: F.read });
        expect(await flagsOf(CORDELIA)).toMatchObject({ 1: 0, 2: 0, 3: F.read });
        await apply({ type: 'flags-changed', userId: CORDELIA, selector: { streamId: 6 }, op: 'remove', mask: F.read });
        expect(await flagsOf(CORDELIA)).toMatchObject({ 3: 0 });
        await apply({ type: 'flags-changed', userId: CORDELIA, selector: { dmKey: '2,10,11' }, op: 'add', mask: F.read });
        expect(await flagsOf(CORDELIA)).toMatchObject({ 4: F.read | F.is_private, 5: F.read | F.is_private });
      });
    });

    describe('historical rows', () => {
      beforeEach(seed);

      it('creates read, historical rows for indexed messages without one, then applies the change to them too', async () => {
        // Hamlet never received message 3 (channel 6); 404 is not indexed.
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [1, 3, 404], createHistorical: [3, 404] }, op: 'add', mask: F.starred });
        expect(Object.fromEntries(await store.flagsFor(HAMLET, [1, 3, 404]))).toEqual({ 1: F.read | F.starred, 3: F.read | F.historical | F.starred });
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [3], createHistorical: [3] }, op: 'remove', mask: F.read });
        // An existing row is never recreated (replays, or a row made meanwhile).
        expect(Object.fromEntries(await store.flagsFor(HAMLET, [3]))).toEqual({ 3: F.historical | F.starred });
        expect((await store.unreadMessages(HAMLET, 100)).find((m) => m.id === 3)).toEqual({ id: 3, senderId: HAMLET, streamId: 6, topic: 'other', dmKey: null, flags: F.historical | F.starred });
        expect(await ids({ terms: [term({ kind: 'stream', streamId: 6 })] })).toEqual([3]);
        expect(await store.countFlagChanges(HAMLET, { messageIds: [3] }, 'add', F.read)).toBe(1);
      });
    });

    describe('narrows', () => {
      beforeEach(seed);

      it('filters by topic lists and by what muting hides, compared case-insensitively', async () => {
        const muted = (mutedTopics: { streamId: number; topic: string }[], mutedStreamIds: number[], visibleTopics: { streamId: number; topic: string }[] = []): NarrowCondition => ({
          kind: 'muted', mutedTopics, mutedStreamIds, visibleTopics,
        });
        expect(await ids({ terms: [term({ kind: 'topics', topics: [{ streamId: 5, topic: 'LUNCH' }] })] })).toEqual([2]);
        expect(await ids({ terms: [term({ kind: 'topics', topics: [{ streamId: 5, topic: 'lunch' }] }, true)] })).toEqual([1, 4, 5, 6]);
        expect(await ids({ terms: [term({ kind: 'topics', topics: [{ streamId: 6, topic: 'lunch' }] })] })).toEqual([]);
        expect(await ids({ terms: [term({ kind: 'topics', topics: [] })] })).toEqual([]);
        expect(await ids({ terms: [term(muted([{ streamId: 5, topic: 'Greetings' }], []))] })).toEqual([1]);
        expect(await ids({ terms: [term(muted([{ streamId: 5, topic: 'Greetings' }], []), true)] })).toEqual([2, 4, 5, 6]);
        // A muted channel hides its topics except the visible (unmuted or followed) ones; direct messages are never muted.
        expect(await ids({ terms: [term(muted([], [5], [{ streamId: 5, topic: 'lunch' }]))] })).toEqual([1, 6]);
        expect(await ids({ terms: [term(muted([], [5], [{ streamId: 5, topic: 'lunch' }]), true)] })).toEqual([2, 4, 5]);
        expect(await ids({ terms: [term(muted([{ streamId: 5, topic: 'lunch' }], [5], [{ streamId: 5, topic: 'lunch' }]))] })).toEqual([1, 2, 6]);
        expect(await ids({ terms: [term(muted([], []))] })).toEqual([]);
        expect(await ids({ terms: [term(muted([], []), true)] })).toEqual([1, 2, 4, 5, 6]);
        expect(await ids({ scope: 'history', terms: [term({ kind: 'stream', streamId: 6 }), term(muted([{ streamId: 6, topic: 'OTHER' }], []), true)] })).toEqual([]);
      });

      it('lists the user\'s messages in either direction from an id, limited', async () => {
        expect(await ids({})).toEqual([1, 2, 4, 5, 6]);
        expect(await ids({}, 'older', 5, 2)).toEqual([5, 4]);
        expect(await ids({}, 'newer', 3, 2)).toEqual([4, 5]);
        expect(await ids({}, 'newer', 3, 0)).toEqual([]);
      });

      it('filters by channel, topic, sender and id', async () => {
        expect(await ids({ terms: [term({ kind: 'stream', streamId: 5 })] })).toEqual([1, 2, 6]);
        expect(await ids({ terms: [term({ kind: 'streams', streamIds: [5, 6] })] })).toEqual([1, 2, 6]);
        expect(await ids({ terms: [term({ kind: 'streams', streamIds: [] })] })).toEqual([]);
        expect(await ids({ terms: [term({ kind: 'stream', streamId: 5 }), term({ kind: 'topic', topic: 'lunch' })] })).toEqual([2]);
        expect(await ids({ terms: [term({ kind: 'sender', userId: CORDELIA })] })).toEqual([2, 4]);
        expect(await ids({ terms: [term({ kind: 'id', id: 4 })] })).toEqual([4]);
        expect(await ids({ terms: [term({ kind: 'ids', ids: [2, 4, 99] })] })).toEqual([2, 4]);
        expect(await ids({ terms: [term({ kind: 'ids', ids: [2, 4] }, true)] })).toEqual([1, 5, 6]);
        expect(await ids({ terms: [term({ kind: 'ids', ids: [] })] })).toEqual([]);
      });

      it('filters direct messages by conversation, participant and kind', async () => {
        expect(await ids({ terms: [term({ kind: 'dm', dmKey: '10,11' })] })).toEqual([4]);
        expect(await ids({ terms: [term({ kind: 'dm-including', userId: IAGO })] })).toEqual([5]);
        expect(await ids({ terms: [term({ kind: 'dm-including', userId: CORDELIA })] })).toEqual([4, 5]);
        expect(await ids({ terms: [term({ kind: 'is-dm' })] })).toEqual([4, 5]);
      });

      it('filters by the user\'s flags', async () => {
        expect(await ids({ terms: [term({ kind: 'flags', mask: F.read, set: 'none' })] })).toEqual([2, 4, 5, 6]);
        expect(await ids({ terms: [term({ kind: 'flags', mask: F.starred, set: 'all' })] })).toEqual([5]);
        expect(await ids({ terms: [term({ kind: 'flags', mask: MENTION_FLAGS_MASK, set: 'any' })] })).toEqual([2]);
        expect(await ids({ userId: CORDELIA, terms: [term({ kind: 'flags', mask: MENTION_FLAGS_MASK, set: 'any' })] })).toEqual([6]);
      });

      it('filters resolved topics, links, images, attachments and words', async () => {
        expect(await ids({ terms: [term({ kind: 'resolved' })] })).toEqual([6]);
        expect(await ids({ terms: [term({ kind: 'has', what: 'link' })] })).toEqual([2]);
        expect(await ids({ terms: [term({ kind: 'has', what: 'image' })] })).toEqual([5]);
        expect(await ids({ terms: [term({ kind: 'has', what: 'attachment' })] })).toEqual([5]);
        expect(await ids({ terms: [search('PIZZA noon')] })).toEqual([2]);
        expect(await ids({ terms: [search('greetings')] })).toEqual([1]); // the topic counts
      });

      it('searches words, stemmed, case- and accent-insensitively, in the topic or the content, all required', async () => {
        await apply(
          added(message(8, { topic: 'Café plans', searchText: 'The runners were RUNNING late' }), [[HAMLET, 0]]),
          added(message(9, { topic: 'misc', searchText: 'concatenate the strings; cafeteria' }), [[HAMLET, F.read]]),
        );
        expect(await ids({ terms: [search('run')] })).toEqual([8]);
        expect(await ids({ terms: [search('runs cafe')] })).toEqual([8]); // one word in the topic, one in the content
        expect(await ids({ terms: [search('CAFÉ')] })).toEqual([8]);
        expect(await ids({ terms: [search('cat')] })).toEqual([]); // words, not substrings ("concatenate")
        expect(await ids({ terms: [search('run pizza')] })).toEqual([]);
        expect(await ids({ terms: [search('string')] })).toEqual([9]);
      });

      it('matches quoted phrases as words in order, in the topic or the content', async () => {
        await apply(
          added(message(8, { topic: 'status', searchText: 'the build is running late again' }), [[HAMLET, 0]]),
          added(message(9, { topic: 'late running', searchText: 'nothing here' }), [[HAMLET, 0]]),
        );
        expect(await ids({ terms: [search('"running late"')] })).toEqual([8]);
        expect(await ids({ terms: [search('"runs late"')] })).toEqual([8]); // each word stemmed
        expect(await ids({ terms: [search('"late running"')] })).toEqual([9]);
        expect(await ids({ terms: [search('late running')] })).toEqual([8, 9]);
        expect(await ids({ terms: [search('"is running"')] })).toEqual([8]); // stop words count inside a phrase
        expect(await ids({ terms: [search('"build running"')] })).toEqual([]);
      });

      it('combines a search with the other conditions, in either direction, up to the limit, over the user\'s rows or a channel\'s history', async () => {
        await apply(...[8, 9, 10, 11].map((id) => added(message(id, { streamId: id % 2 === 0 ? 5 : 6, searchText: 'standup notes' }), [[HAMLET, id === 10 ? F.starred : 0]])));
        await apply(added(message(12, { searchText: 'standup notes' }), [[CORDELIA, 0]]));
        expect(await ids({ terms: [search('notes')] })).toEqual([8, 9, 10, 11]);
        expect(await ids({ terms: [search('notes')] }, 'older', 10, 2)).toEqual([10, 9]);
        expect(await ids({ terms: [search('notes')] }, 'newer', 9, 2)).toEqual([9, 10]);
        expect(await ids({ terms: [search('notes'), term({ kind: 'stream', streamId: 5 })] })).toEqual([8, 10]);
        expect(await ids({ terms: [search('notes'), term({ kind: 'stream', streamId: 5 }, true)] })).toEqual([9, 11]);
        expect(await ids({ terms: [search('notes'), term({ kind: 'flags', mask: F.starred, set: 'all' })] })).toEqual([10]);
        expect(await ids({ terms: [search('notes'), term({ kind: 'id', id: 9 })] })).toEqual([9]);
        // Message 12 is not Hamlet's: only a channel's history (scope "history") finds it.
        expect(await ids({ terms: [search('notes'), term({ kind: 'stream', streamId: 5 })], scope: 'history' })).toEqual([8, 10, 12]);
        expect((await store.findMessages({ realmId: REALM, userId: HAMLET, scope: 'history', terms: [search('notes')] }, { direction: 'older', fromId: 100, limit: 1 }))).toEqual([{ id: 12, flags: null }]);
        expect(await store.findMessages({ realmId: REALM, userId: HAMLET, scope: 'user', terms: [search('notes'), term({ kind: 'id', id: 10 })] }, { direction: 'newer', fromId: 0, limit: 5 })).toEqual([{ id: 10, flags: F.starred }]);
        expect(await ids({ userId: CORDELIA, terms: [search('notes')] })).toEqual([12]);
        expect(await ids({ realmId: 2, terms: [search('notes')], scope: 'history' })).toEqual([]);
      });

      it('keeps the search index in step with edits, moves and deletes', async () => {
        await apply(added(message(8, { topic: 'alpha', searchText: 'original words' }), [[HAMLET, 0]]));
        await apply({ type: 'message-edited', messageId: 8, searchText: 'edited phrasing', hasLink: false, hasImage: false, hasAttachment: false, mentionedUserIds: [], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [] });
        expect(await ids({ terms: [search('original')] })).toEqual([]);
        expect(await ids({ terms: [search('edit')] })).toEqual([8]);
        await apply({ type: 'messages-moved', messageIds: [8], streamId: 6, topic: 'beta' });
        expect(await ids({ terms: [search('alpha')] })).toEqual([]);
        expect(await ids({ terms: [search('beta phrasing')] })).toEqual([8]);
        await apply({ type: 'messages-moved', messageIds: [8], streamId: 5, topic: 'beta' }); // the topic unchanged
        expect(await ids({ terms: [search('beta')] })).toEqual([8]);
        await apply({ type: 'messages-deleted', messageIds: [8] });
        expect(await ids({ terms: [search('beta')], scope: 'history' })).toEqual([]);
        expect(await ids({ terms: [search('phrasing')] })).toEqual([]);
      });

      it('filters messages with reactions by their count, which a removal lowers and never below zero', async () => {
        const reacted = (negated = false) => ids({ terms: [term({ kind: 'reacted' }, negated)] });
        const counted = (messageId: number, delta: 1 | -1): UserMessageChange => ({ type: 'reactions-counted', messageId, delta });
        expect(await reacted()).toEqual([]);
        await apply(counted(2, 1), counted(2, 1), counted(4, 1), counted(404, 1));
        expect(await reacted()).toEqual([2, 4]);
        expect(await reacted(true)).toEqual([1, 5, 6]);
        expect(await ids({ terms: [term({ kind: 'reacted' }), term({ kind: 'stream', streamId: 5 })] })).toEqual([2]);
        expect(await ids({ scope: 'history', terms: [term({ kind: 'reacted' })] })).toEqual([2, 4]);
        await apply(counted(2, -1), counted(4, -1));
        expect(await reacted()).toEqual([2]); // one of its two reactions is left
        await apply(counted(2, -1), counted(2, -1), counted(6, -1)); // below zero (reactions from before the count): none
        expect(await reacted()).toEqual([]);
        await apply(counted(6, 1));
        expect(await reacted()).toEqual([6]);
      });

      it('negates terms, counting a missing value as "does not match"', async () => {
        expect(await ids({ terms: [term({ kind: 'topic', topic: 'greetings' }, true)] })).toEqual([2, 4, 5, 6]);
        expect(await ids({ terms: [term({ kind: 'is-dm' }, true)] })).toEqual([1, 2, 6]);
        expect(await ids({ terms: [term({ kind: 'flags', mask: F.read, set: 'none' }, true)] })).toEqual([1]);
        expect(await ids({ terms: [term({ kind: 'nothing' })] })).toEqual([]);
        expect(await ids({ terms: [term({ kind: 'nothing' }, true)] })).toEqual([1, 2, 4, 5, 6]);
      });

      it('reads a channel\'s whole history in history scope, with the user\'s flags where there is a row', async () => {
        const matches = await store.findMessages(
          { realmId: REALM, userId: HAMLET, scope: 'history', terms: [term({ kind: 'stream', streamId: 6 })] },
          { direction: 'newer', fromId: 0, limit: 10 },
        );
        expect(matches).toEqual([{ id: 3, flags: null }]);
        expect(await ids({ scope: 'history', terms: [term({ kind: 'stream', streamId: 5 })] })).toEqual([1, 2, 6]);
        expect(await ids({ scope: 'history', realmId: 2, terms: [] })).toEqual([7]); // organizations never mix
      });
    });

    describe('unread state and topics', () => {
      beforeEach(seed);

      it('lists the newest unread messages, oldest first, capped', async () => {
        expect((await store.unreadMessages(HAMLET, 10)).map((m) => m.id)).toEqual([2, 4, 5, 6]);
        expect(await store.unreadMessages(HAMLET, 2)).toEqual([
          { id: 5, senderId: IAGO, streamId: null, topic: null, dmKey: '2,10,11', flags: F.is_private | F.starred },
          { id: 6, senderId: HAMLET, streamId: 5, topic: '✔ done', dmKey: null, flags: 0 },
        ]);
      });

      it('counts unread messages per topic and conversation, and mentions', async () => {
        expect(await store.unreadCounts(HAMLET)).toEqual({
          topics: [{ streamId: 5, topic: 'Lunch', count: 1 }, { streamId: 5, topic: '✔ done', count: 1 }],
          conversations: [{ dmKey: '10,11', count: 1 }, { dmKey: '2,10,11', count: 1 }],
          mentioned: 1,
          total: 4,
        });
      });

      it('knows a topic\'s participants, whether it has messages and the newest message', async () => {
        await apply(added(message(8, { senderId: IAGO, topic: 'GREETINGS' }), [[IAGO, F.read]]));
        expect(await store.topicParticipants(REALM, 5, 'greetings')).toEqual([IAGO, HAMLET]);
        expect(await store.topicHasMessages(REALM, 5, 'Lunch')).toBe(true);
        expect(await store.topicHasMessages(REALM, 5, 'nothing here')).toBe(false);
        expect(await store.topicHasMessages(REALM, 6, 'other', HAMLET)).toBe(false);
        expect(await store.topicHasMessages(REALM, 5, 'lunch', HAMLET)).toBe(true);
        expect(await store.topicHasMessages(REALM, 5, 'greetings', HAMLET)).toBe(true); // message 1; message 8 is Iago's only
        expect(await store.topicHasMessages(REALM, 5, 'greetings', IAGO)).toBe(true);
        expect(await store.maxMessageId(REALM)).toBe(8);
        expect(await store.maxMessageId(REALM, HAMLET)).toBe(6);
      });

      it('lists a channel\'s topics newest first, one per topic whatever its case, for everyone or for one user', async () => {
        await apply(added(message(8, { senderId: IAGO, topic: 'GREETINGS' }), [[IAGO, F.read]]));
        expect(await store.topicsOf(REALM, 5)).toEqual([
          { topic: 'GREETINGS', maxId: 8 },
          { topic: '✔ done', maxId: 6 },
          { topic: 'Lunch', maxId: 2 },
        ]);
        expect(await store.topicsOf(REALM, 5, HAMLET)).toEqual([
          { topic: '✔ done', maxId: 6 },
          { topic: 'Lunch', maxId: 2 },
          { topic: 'greetings', maxId: 1 },
        ]);
        expect(await store.topicsOf(REALM, 6, HAMLET)).toEqual([]);
      });

      it('lists the retention job\'s candidates: a channel\'s messages where they are now, or the direct messages, at or below an id, newest first, limited', async () => {
        expect(await store.retentionCandidates(REALM, { streamId: 5 }, 100, 10)).toEqual([6, 2, 1]);
        expect(await store.retentionCandidates(REALM, { streamId: 5 }, 5, 10)).toEqual([2, 1]);
        expect(await store.retentionCandidates(REALM, { streamId: 5 }, 100, 2)).toEqual([6, 2]);
        expect(await store.retentionCandidates(REALM, 'direct', 100, 10)).toEqual([5, 4]);
        expect(await store.retentionCandidates(REALM, 'direct', 4, 10)).toEqual([4]);
        // Another organization's channel and direct messages are not this one's.
        expect(await store.retentionCandidates(REALM, { streamId: 50 }, 100, 10)).toEqual([]);
        expect(await store.retentionCandidates(2, 'direct', 100, 10)).toEqual([]);
        await apply({ type: 'messages-moved', messageIds: [2], streamId: 6, topic: 'moved' }, { type: 'messages-deleted', messageIds: [1, 4] });
        expect(await store.retentionCandidates(REALM, { streamId: 5 }, 100, 10)).toEqual([6]);
        expect(await store.retentionCandidates(REALM, { streamId: 6 }, 100, 10)).toEqual([3, 2]);
        expect(await store.retentionCandidates(REALM, 'direct', 100, 10)).toEqual([5]);
      });

      it('moves messages to another channel and topic', async () => {
        await apply({ type: 'messages-moved', messageIds: [1, 2], streamId: 6, topic: 'moved' });
        expect(await ids({ terms: [term({ kind: 'stream', streamId: 6 }), term({ kind: 'topic', topic: 'MOVED' })] })).toEqual([1, 2]);
        expect(await store.topicHasMessages(REALM, 5, 'Lunch')).toBe(false);
      });

      it('records each moved message\'s move history and location, in one change (issue 5)', async () => {
        await apply({ type: 'messages-moved', messageIds: [1, 2], streamId: 5, topic: '✔ greetings', history: { userId: IAGO, timestamp: 1000, targetMessageId: 1 } });
        await apply({ type: 'messages-moved', messageIds: [1], streamId: 6, topic: '✔ greetings', history: { userId: HAMLET, timestamp: 1001, targetMessageId: 1 } });
        const locations = await store.locationsOf([1, 2, 3, 404]);
        expect([...locations.keys()].sort()).toEqual([1, 2, 3]);
        expect(locations.get(1)).toEqual({
          streamId: 6, topic: '✔ greetings', lastMovedAt: 1001,
          moves: [
            { user_id: IAGO, timestamp: 1000, target_message_id: 1, prev_topic: 'greetings', topic: '✔ greetings' },
            { user_id: HAMLET, timestamp: 1001, target_message_id: 1, prev_stream: 5, stream: 6 },
          ],
        });
        expect(locations.get(2)).toEqual({
          streamId: 5, topic: '✔ greetings', lastMovedAt: 1000,
          moves: [{ user_id: IAGO, timestamp: 1000, target_message_id: 1, prev_topic: 'Lunch', topic: '✔ greetings' }],
        });
        expect(locations.get(3)).toEqual({ streamId: 6, topic: 'other', lastMovedAt: null, moves: [] });
        expect(await ids({ terms: [term({ kind: 'resolved' })] })).toEqual([1, 2, 6]);
      });

      it('a move between channels drops the rows of users losing them and adds read rows where missing', async () => {
        await apply({ type: 'messages-moved', messageIds: [1, 2], streamId: 6, topic: 'x', removeRowsOf: [CORDELIA], addRows: { userIds: [HAMLET, IAGO], flags: F.read } });
        expect(await store.flagsFor(CORDELIA, [1, 2])).toEqual(new Map());
        expect(await store.flagsFor(HAMLET, [1, 2])).toEqual(new Map([[1, F.read], [2, F.mentioned]]));
        expect(await store.flagsFor(IAGO, [1, 2])).toEqual(new Map([[1, F.read], [2, F.read]]));
      });

      it('a content edit changes the searched text and recomputes the mention flags of existing rows only', async () => {
        await apply({
          type: 'message-edited', messageId: 2, searchText: 'Soup instead', hasLink: false, hasImage: false, hasAttachment: false,
          mentionedUserIds: [CORDELIA, IAGO], streamWildcardMentioned: true, topicWildcardMentionedUserIds: [],
        });
        expect(await store.flagsFor(HAMLET, [2])).toEqual(new Map([[2, F.stream_wildcard_mentioned]]));
        expect(await store.flagsFor(CORDELIA, [2])).toEqual(new Map([[2, F.read | F.mentioned | F.stream_wildcard_mentioned]]));
        expect(await store.flagsFor(IAGO, [2])).toEqual(new Map());
        expect(await ids({ terms: [search('soup')] })).toEqual([2]);
        expect(await ids({ terms: [term({ kind: 'has', what: 'link' })] })).toEqual([]);
      });

      it('a content edit naming the previous mentions clears only those users\' mention flags', async () => {
        await apply({
          type: 'message-edited', messageId: 2, searchText: 'x', hasLink: false, hasImage: false, hasAttachment: false,
          mentionedUserIds: [CORDELIA], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [HAMLET], previouslyMentionedUserIds: [HAMLET], previousStreamWildcard: false,
        });
        expect(await store.flagsFor(HAMLET, [2])).toEqual(new Map([[2, F.topic_wildcard_mentioned]]));
        expect(await store.flagsFor(CORDELIA, [2, 6])).toEqual(new Map([[2, F.read | F.mentioned], [6, F.stream_wildcard_mentioned]]));
        await apply({
          type: 'message-edited', messageId: 6, searchText: 'y', hasLink: false, hasImage: false, hasAttachment: false,
          mentionedUserIds: [], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [], previouslyMentionedUserIds: [], previousStreamWildcard: true,
        });
        expect(await store.flagsFor(CORDELIA, [6])).toEqual(new Map([[6, 0]]));
      });

      it('a content edit moves has_alert_word from the users flagged before to the users named now, on existing rows only', async () => {
        const edited = (userIds: number[], previousUserIds: number[]) => apply({
          type: 'message-edited', messageId: 2, searchText: 'x', hasLink: false, hasImage: false, hasAttachment: false,
          mentionedUserIds: [HAMLET], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [], alertWords: { userIds, previousUserIds },
        });
        await edited([HAMLET, IAGO], []);
        expect(await store.flagsFor(HAMLET, [2])).toEqual(new Map([[2, F.mentioned | F.has_alert_word]]));
        expect(await store.flagsFor(IAGO, [2])).toEqual(new Map());
        await edited([CORDELIA], [HAMLET]);
        expect(await store.flagsFor(HAMLET, [2])).toEqual(new Map([[2, F.mentioned]]));
        expect(await store.flagsFor(CORDELIA, [2])).toEqual(new Map([[2, F.read | F.has_alert_word]]));
      });

      it('reads the flags of many users for a few messages at once, as flagsFor does for each', async () => {
        const flagsForUsers = async (userIds: number[], messageIds: number[]) =>
          Object.fromEntries([...(await store.flagsForUsers(userIds, messageIds))].map(([userId, flags]) => [userId, Object.fromEntries(flags)]));
        expect(await flagsForUsers([HAMLET, CORDELIA, IAGO, 99], [1, 2, 5, 404])).toEqual({
          [HAMLET]: { 1: F.read, 2: F.mentioned, 5: F.is_private | F.starred },
          [CORDELIA]: { 1: 0, 2: F.read, 5: F.is_private },
          [IAGO]: { 5: F.read | F.is_private },
        });
        await apply({ type: 'flags-changed', userId: CORDELIA, selector: { messageIds: [1] }, op: 'add', mask: F.read | F.starred });
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [3], createHistorical: [3] }, op: 'add', mask: F.starred });
        expect(await flagsForUsers([CORDELIA, HAMLET], [1, 3])).toEqual({
          [CORDELIA]: { 1: F.read | F.starred, 3: F.read },
          [HAMLET]: { 1: F.read, 3: F.read | F.historical | F.starred },
        });
        for (const userId of [HAMLET, CORDELIA, IAGO]) {
          expect((await store.flagsForUsers([userId], [1, 2, 3, 4, 5, 6])).get(userId)).toEqual(await store.flagsFor(userId, [1, 2, 3, 4, 5, 6]));
        }
        expect(await store.flagsForUsers([], [1])).toEqual(new Map());
        expect(await store.flagsForUsers([HAMLET], [])).toEqual(new Map());
      });

      it('answers which of the given users have a row of a message with every bit of a mask set', async () => {
        expect(await store.usersWithFlags(2, [HAMLET, CORDELIA, IAGO], F.read)).toEqual([CORDELIA]);
        expect(await store.usersWithFlags(2, [HAMLET, CORDELIA, IAGO], F.mentioned)).toEqual([HAMLET]);
        expect(await store.usersWithFlags(2, [HAMLET, CORDELIA], F.read | F.mentioned)).toEqual([]);
        expect(await store.usersWithFlags(2, [], F.read)).toEqual([]);
        await apply({ type: 'flags-changed', userId: HAMLET, selector: { messageIds: [2] }, op: 'add', mask: F.read });
        expect(await store.usersWithFlags(2, [IAGO, HAMLET, CORDELIA], F.read)).toEqual([HAMLET, CORDELIA]);
      });

      it('deletes messages with every row and their history', async () => {
        await apply({ type: 'messages-moved', messageIds: [1], streamId: 5, topic: 'x', history: { userId: IAGO, timestamp: 1000, targetMessageId: 1 } });
        await apply({ type: 'messages-deleted', messageIds: [1, 4] });
        expect(await store.flagsFor(HAMLET, [1, 2, 4])).toEqual(new Map([[2, F.mentioned]]));
        expect(await store.flagsFor(CORDELIA, [1, 4])).toEqual(new Map());
        expect(await store.locationsOf([1, 4])).toEqual(new Map());
        expect(await ids({})).toEqual([2, 5, 6]);
      });
    });

    it('fans a message out to 10,000 users and marks 5,000 of them read, in bulk', async () => {
      const users = Array.from({ length: 10_000 }, (_, i) => 1000 + i);
      await apply(added(message(1), users.map((u) => [u, 0])));
      await apply(...Array.from({ length: 200 }, (_, i) => added(message(2 + i), [[HAMLET, 0]])));
      expect((await store.flagsFor(users[9999], [1])).get(1)).toBe(0);
      await apply({ type: 'flags-changed', userId: HAMLET, selector: { streamId: 5, maxId: 101 }, op: 'add', mask: F.read });
      expect((await store.unreadCounts(HAMLET)).total).toBe(100);
    }, 60_000);

    it('forgets everything on reset', async () => {
      await seed();
      await store.reset(checkpoint);
      expect(await ids({})).toEqual([]);
      expect(await store.getCheckpoint(checkpoint)).toBeUndefined();
    });
  });
}
