import {
  type CollectionSpec,
  cloneLayout,
  type IndexedMessage,
  type LiveReadModels,
  type ReadModelCopy,
  type ReadModelLayout,
  type ReadStoreBatch,
  UniqueConstraintViolationError,
} from '@app/application';

export type ReadModelCopiesFixture = {
  /** Fresh, empty live read models (their copies port is the adapter under test). */
  live: LiveReadModels;
  /** Closes the live read models and opens them again over the same data (a restart). */
  reopen(): Promise<LiveReadModels>;
  /** Copies' data that no layout uses any more (files, suffixed collections): none may be left. */
  leftovers(): Promise<string[]>;
  cleanup(): Promise<void>;
};

const USER_MESSAGES = 'user_messages';
const PEOPLE: CollectionSpec = { name: 'people', fields: [{ name: 'name', type: 'string' }], unique: [['name']] };
const PETS: CollectionSpec = { name: 'pets', fields: [{ name: 'name', type: 'string' }] };
const REALM = 1;
const HAMLET = 10;

type Named = { name: string };
type Target = 'all' | 'user_messages' | { collection: string; projection: string };

const put = (collection: string, rows: [string, string, bigint][], checkpoint?: { name: string; position: bigint }): ReadStoreBatch => ({
  writes: [{ collection, ops: rows.map(([id, name, position]) => ({ type: 'put' as const, id, doc: { name }, position })) }],
  checkpoints: checkpoint ? [checkpoint] : [],
});
const message = (id: number): IndexedMessage => ({
  id, realmId: REALM, senderId: HAMLET, streamId: 5, topic: 'greetings', dmKey: null,
  hasLink: false, hasImage: false, hasAttachment: false, searchText: `message ${id}`,
});
const sent = (id: number, position: bigint, flags = 0) => ({
  position,
  changes: [{ type: 'message-added' as const, message: message(id), rows: [{ userId: HAMLET, flags }] }],
});

/**
 * Switches the live read models to a copy exactly as ProjectionRebuilder does: route (one
 * synchronous step), persist the layout, clear the rebuilt projection from the old copy (unless
 * the adapter renamed the copy over it), drop the copies no longer used.
 */
async function switchLikeTheRebuilder(live: LiveReadModels, copy: ReadModelCopy, target: Target): Promise<void> {
  const all = target === 'all';
  const before = live.readStore.currentLayout();
  const layout: ReadModelLayout = all ? { default: copy.label, collections: {}, checkpoints: {} } : cloneLayout(before);
  if (target === USER_MESSAGES) layout.checkpoints[USER_MESSAGES] = copy.label;
  else if (typeof target === 'object') {
    layout.collections[target.collection] = copy.label;
    layout.checkpoints[target.projection] = copy.label;
  }
  const oldStore = typeof target === 'object' ? live.readStore.storeForCollection(target.collection) : undefined;
  const oldUserMessages = live.userMessages.store;
  // The rebuilder tells the copy its replay caught up before it serves (a store may leave a fresh-load mode).
  await copy.readStore.caughtUp?.();
  live.readStore.addCopy(copy);
  const unused = live.readStore.switchTo(layout);
  if (all || target === USER_MESSAGES) live.userMessages.switchTo(copy.userMessageStore);
  await live.copies.persistLayout(layout);
  if (!all && !live.copies.renamesOverLive) {
    if (typeof target === 'object' && !unused.includes(before.collections[target.collection] ?? before.default)) {
      await oldStore!.dropCollection(target.collection);
      await oldStore!.deleteCheckpoint(target.projection);
    }
    if (target === USER_MESSAGES && !unused.includes(before.checkpoints[USER_MESSAGES] ?? before.default)) await oldUserMessages.reset(USER_MESSAGES);
  }
  for (const label of unused) await live.copies.drop(label);
}

/** The behaviour every ReadModelCopiesPort adapter must have, used the way the rebuilder uses it. */
export function readModelCopiesContract(adapterName: string, open: () => Promise<ReadModelCopiesFixture>) {
  describe(`ReadModelCopiesPort contract: ${adapterName}`, () => {
    let fixture: ReadModelCopiesFixture;
    let live: LiveReadModels;

    beforeEach(async () => {
      fixture = await open();
      live = fixture.live;
      expect(live.copies.supported).toBe(true);
      // The live read models before any rebuild: people and pets, and a message.
      await live.readStore.ensureCollection(PEOPLE);
      await live.readStore.ensureCollection(PETS);
      await live.userMessages.port.prepare();
      await live.readStore.commit(put('people', [['1', 'ada', 1n], ['2', 'bob (stale)', 2n]], { name: 'people', position: 2n }));
      await live.readStore.commit(put('pets', [['1', 'rex', 2n]], { name: 'pets', position: 2n }));
      await live.userMessages.port.apply([sent(1, 1n)], { name: USER_MESSAGES, position: 2n });
      // As the live projector does at the end of its first replay.
      await live.readStore.caughtUp?.();
    });
    afterEach(async () => fixture.cleanup());

    const names = async (models: LiveReadModels, collection: string) =>
      (await models.readStore.find<Named>(collection, { orderBy: [{ field: 'id', direction: 'asc' }] })).map((d) => d.name);
    const reopened = async () => {
      live = await fixture.reopen();
      await live.readStore.ensureCollection(PEOPLE);
      await live.readStore.ensureCollection(PETS);
      await live.userMessages.port.prepare();
      return live;
    };

    /** A copy rebuilt with everything: people fixed, a third person, a second message, checkpoints at 3. */
    const fillAll = async (copy: ReadModelCopy) => {
      await copy.readStore.ensureCollection(PEOPLE);
      await copy.readStore.ensureCollection(PETS);
      await copy.userMessageStore.prepare();
      await copy.readStore.commit(put('people', [['1', 'ada', 1n], ['2', 'bob', 2n], ['3', 'cy', 3n]], { name: 'people', position: 3n }));
      await copy.readStore.commit(put('pets', [['1', 'rex', 2n]], { name: 'pets', position: 3n }));
      await copy.userMessageStore.apply([sent(1, 1n), sent(2, 3n)], { name: USER_MESSAGES, position: 3n });
    };

    it('opens a fresh, empty copy beside the live one, which keeps serving', async () => {
      const copy = await live.copies.create();
      expect(copy.label).not.toBe(live.readStore.currentLayout().default);
      await copy.readStore.ensureCollection(PEOPLE);
      expect(await copy.readStore.find(PEOPLE.name)).toEqual([]);
      expect(await copy.readStore.getCheckpoints()).toEqual({});
      await copy.userMessageStore.prepare();
      expect(await copy.userMessageStore.maxMessageId(REALM)).toBeNull();
      await copy.readStore.commit(put('people', [['9', 'zed', 9n]], { name: 'people', position: 9n }));
      expect(await names(live, 'people')).toEqual(['ada', 'bob (stale)']);
      expect(await live.readStore.getCheckpoint('people')).toBe(2n);
      await live.copies.drop(copy.label);
    });

    it('switches everything to a copy: reads, writes and checkpoints go to it, the old copy is dropped, and a restart keeps it', async () => {
      const copy = await live.copies.create();
      await fillAll(copy);
      await switchLikeTheRebuilder(live, copy, 'all');

      expect(await names(live, 'people')).toEqual(['ada', 'bob', 'cy']);
      expect(await live.readStore.getCheckpoints()).toEqual({ people: 3n, pets: 3n, [USER_MESSAGES]: 3n });
      expect(await live.userMessages.port.maxMessageId(REALM)).toBe(2);
      expect(await live.userMessages.port.getCheckpoint(USER_MESSAGES)).toBe(3n);
      // Writes after the switch (the live projector) land in the new copy, with its indexes.
      await live.readStore.commit(put('people', [['4', 'dee', 4n]], { name: 'people', position: 4n }));
      await live.userMessages.port.apply([sent(3, 4n)], { name: USER_MESSAGES, position: 4n });
      await expect(live.readStore.commit(put('people', [['5', 'dee', 5n]]))).rejects.toBeInstanceOf(UniqueConstraintViolationError);
      expect(await names(live, 'people')).toEqual(['ada', 'bob', 'cy', 'dee']);
      expect(await fixture.leftovers()).toEqual([]);

      const restarted = await reopened();
      expect(await names(restarted, 'people')).toEqual(['ada', 'bob', 'cy', 'dee']);
      expect(await names(restarted, 'pets')).toEqual(['rex']);
      expect(await restarted.readStore.getCheckpoints()).toEqual({ people: 4n, pets: 3n, [USER_MESSAGES]: 4n });
      expect([...(await restarted.userMessages.port.flagsFor(HAMLET, [1, 2, 3])).keys()].sort()).toEqual([1, 2, 3]);
      expect(await fixture.leftovers()).toEqual([]);
    });

    it('switches one projection: its collection and checkpoint come from the copy, the rest stays', async () => {
      const copy = await live.copies.create();
      await copy.readStore.ensureCollection(PEOPLE);
      await copy.readStore.commit(put('people', [['1', 'ada', 1n], ['2', 'bob', 2n], ['3', 'cy', 3n]], { name: 'people', position: 3n }));
      await live.readStore.commit(put('pets', [['2', 'tom', 3n]], { name: 'pets', position: 3n }));
      await switchLikeTheRebuilder(live, copy, { collection: 'people', projection: 'people' });

      expect(await names(live, 'people')).toEqual(['ada', 'bob', 'cy']);
      expect(await names(live, 'pets')).toEqual(['rex', 'tom']);
      expect(await live.readStore.getCheckpoints()).toEqual({ people: 3n, pets: 3n, [USER_MESSAGES]: 2n });
      expect(await live.userMessages.port.maxMessageId(REALM)).toBe(1);
      await live.readStore.commit(put('people', [['4', 'dee', 4n]], { name: 'people', position: 4n }));
      await live.readStore.commit(put('pets', [['3', 'kit', 4n]], { name: 'pets', position: 4n }));
      expect(await live.readStore.getCheckpoints()).toEqual({ people: 4n, pets: 4n, [USER_MESSAGES]: 2n });
      expect(await fixture.leftovers()).toEqual([]);

      const restarted = await reopened();
      expect(await names(restarted, 'people')).toEqual(['ada', 'bob', 'cy', 'dee']);
      expect(await names(restarted, 'pets')).toEqual(['rex', 'tom', 'kit']);
      expect(await restarted.readStore.getCheckpoints()).toEqual({ people: 4n, pets: 4n, [USER_MESSAGES]: 2n });
      expect(await restarted.userMessages.port.maxMessageId(REALM)).toBe(1);

      // A second rebuild of the same projection replaces the first copy in turn.
      const again = await restarted.copies.create();
      await again.readStore.ensureCollection(PEOPLE);
      await again.readStore.commit(put('people', [['1', 'ada', 1n]], { name: 'people', position: 5n }));
      await switchLikeTheRebuilder(restarted, again, { collection: 'people', projection: 'people' });
      expect(await names(restarted, 'people')).toEqual(['ada']);
      expect(await names(restarted, 'pets')).toEqual(['rex', 'tom', 'kit']);
      expect(await restarted.readStore.getCheckpoints()).toEqual({ people: 5n, pets: 4n, [USER_MESSAGES]: 2n });
      expect(await fixture.leftovers()).toEqual([]);
    });

    it('switches the per-user message state alone', async () => {
      const copy = await live.copies.create();
      await copy.userMessageStore.prepare();
      await copy.userMessageStore.apply([sent(1, 1n, 1), sent(2, 3n)], { name: USER_MESSAGES, position: 3n });
      await switchLikeTheRebuilder(live, copy, USER_MESSAGES);

      expect(await live.userMessages.port.flagsFor(HAMLET, [1, 2])).toEqual(new Map([[1, 1], [2, 0]]));
      expect(await live.readStore.getCheckpoints()).toEqual({ people: 2n, pets: 2n, [USER_MESSAGES]: 3n });
      expect(await names(live, 'people')).toEqual(['ada', 'bob (stale)']);
      expect(await fixture.leftovers()).toEqual([]);

      const restarted = await reopened();
      expect(await restarted.userMessages.port.flagsFor(HAMLET, [1, 2])).toEqual(new Map([[1, 1], [2, 0]]));
      expect(await restarted.readStore.getCheckpoint(USER_MESSAGES)).toBe(3n);
    });

    it('drops an abandoned copy and leaves the live read models as they were', async () => {
      const copy = await live.copies.create();
      await fillAll(copy);
      await live.copies.drop(copy.label);
      expect(await fixture.leftovers()).toEqual([]);
      expect(await names(live, 'people')).toEqual(['ada', 'bob (stale)']);
      expect(await live.readStore.getCheckpoints()).toEqual({ people: 2n, pets: 2n, [USER_MESSAGES]: 2n });

      const restarted = await reopened();
      expect(await names(restarted, 'people')).toEqual(['ada', 'bob (stale)']);
      expect(await restarted.userMessages.port.maxMessageId(REALM)).toBe(1);
    });
  });
}
