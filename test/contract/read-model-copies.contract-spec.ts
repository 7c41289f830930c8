import { readdirSync } from 'node:fs';
import { EVENT_STORE, LIVE_READ_MODELS, LOGGER, type LiveReadModels } from '@app/application';
import { describeIfServer, makeTempDir, readModelCopiesContract, type ReadModelCopiesFixture } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';
import { readModelLayout, SqliteReadModelCopies } from '@app/infrastructure';
import { COPY_RECORDS, MongoReadModelCopies, SWITCH_RECORDS } from '@app/infrastructure/mongodb/mongo-read-model-copies';
import { ProjectionRebuilder, Projector } from '@app/projections';

jest.setTimeout(60_000);

readModelCopiesContract('embedded (SQLite files)', async (): Promise<ReadModelCopiesFixture> => {
  const dir = makeTempDir();
  let live = SqliteReadModelCopies.openLive(dir.path, 'normal');
  return {
    live,
    async reopen() {
      await live.copies.close();
      live = SqliteReadModelCopies.openLive(dir.path, 'normal');
      return live;
    },
    async leftovers() {
      const layout = readModelLayout(dir.path);
      const inUse = new Set([layout.default, ...Object.values(layout.collections), ...Object.values(layout.checkpoints)]);
      return readdirSync(dir.path).filter((f) => f.endsWith('.sqlite') && !inUse.has(f));
    },
    async cleanup() {
      await live.copies.close();
      dir.remove();
    },
  };
});

describeIfServer('MONGODB_URI', 'ReadModelCopiesPort: servers (MongoDB)', (uri) => {
  let counter = 0;
  const database = () => `copies_${Date.now()}_${++counter}`;

  const openFixture = async (dbName: string): Promise<ReadModelCopiesFixture & { current(): LiveReadModels & { copies: MongoReadModelCopies } }> => {
    let live = await MongoReadModelCopies.openLive(uri, dbName);
    return {
      live,
      current: () => live,
      async reopen() {
        await live.copies.close();
        live = await MongoReadModelCopies.openLive(uri, dbName);
        return live;
      },
      async leftovers() {
        const db = live.copies.db;
        const suffixed = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.includes('__rb_'));
        const records = (await db.collection(COPY_RECORDS).find({}).toArray()).map((r) => `copy record ${String(r._id)}`);
        const switches = (await db.collection(SWITCH_RECORDS).find({}).toArray()).map((r) => `switch record ${String(r._id)}`);
        return [...suffixed, ...records, ...switches];
      },
      async cleanup() {
        await live.copies.db.dropDatabase().catch(() => undefined);
        await live.copies.close();
      },
    };
  };

  readModelCopiesContract('servers (MongoDB collections with a suffix)', () => openFixture(database()));

  it('finishes at the next start a switch that stopped halfway (some collections renamed, the checkpoints not)', async () => {
    const fixture = await openFixture(database());
    const live = fixture.current();
    const spec = { name: 'people', fields: [{ name: 'name', type: 'string' as const }] };
    await live.readStore.ensureCollection(spec);
    await live.readStore.commit({ writes: [{ collection: 'people', ops: [{ type: 'put', id: '1', doc: { name: 'old' }, position: 1n }] }], checkpoints: [{ name: 'people', position: 1n }] });
    const copy = await live.copies.create();
    await copy.readStore.ensureCollection(spec);
    await copy.readStore.commit({ writes: [{ collection: 'people', ops: [{ type: 'put', id: '1', doc: { name: 'new' }, position: 2n }] }], checkpoints: [{ name: 'people', position: 2n }] });
    // What a switch writes before its first rename, then the first rename, then a crash.
    const db = live.copies.db;
    const suffix = `__${copy.label}`;
    const renames = [{ from: `rm_people${suffix}`, to: 'rm_people' }, { from: `_checkpoints${suffix}`, to: '_checkpoints' }];
    await db.collection<{ _id: string; label: string; renames: { from: string; to: string }[]; checkpoints: Record<string, string>; startedAt: Date }>(SWITCH_RECORDS).insertOne({ _id: suffix, label: copy.label, renames, checkpoints: {}, startedAt: new Date() });
    await db.renameCollection(renames[0].from, renames[0].to, { dropTarget: true });

    const restarted = await fixture.reopen();
    await restarted.readStore.ensureCollection(spec);
    expect(await restarted.readStore.find('people')).toEqual([{ name: 'new' }]);
    expect(await restarted.readStore.getCheckpoint('people')).toBe(2n);
    expect(await fixture.leftovers()).toEqual([]);
    await fixture.cleanup();
  });

  it('drops at the next start a copy whose rebuild stopped (stale heartbeat), and keeps a fresh one', async () => {
    const dbName = database();
    const fixture = await openFixture(dbName);
    const stale = await fixture.current().copies.create();
    await stale.readStore.ensureCollection({ name: 'people', fields: [] });
    await fixture.current().copies.db.collection<{ _id: string; heartbeatAt: Date }>(COPY_RECORDS).updateOne({ _id: stale.label }, { $set: { heartbeatAt: new Date(0) } });
    const fresh = await fixture.current().copies.create();
    const restarted = (await fixture.reopen()) as LiveReadModels & { copies: MongoReadModelCopies };
    const names = (await restarted.copies.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names.filter((n) => n.endsWith(`__${stale.label}`))).toEqual([]);
    expect(names.filter((n) => n.endsWith(`__${fresh.label}`)).length).toBeGreaterThan(0);
    await restarted.copies.drop(fresh.label); // an operator dropping a leftover by its label
    expect(await fixture.leftovers()).toEqual([]);
    await fixture.cleanup();
  });

  describe('ProjectionRebuilder on the MongoDB read store', () => {
    let api: ApiTestClient;
    beforeAll(async () => {
      api = await ApiTestClient.start({ config: { readStoreDriver: 'servers', mongodbUri: uri, mongodbDb: database() } });
    });
    afterAll(async () => {
      await api.app.get<LiveReadModels & { copies: MongoReadModelCopies }>(LIVE_READ_MODELS).copies.db.dropDatabase().catch(() => undefined);
      await api.close();
    });

    it('rebuilds everything, then one projection, blue/green, and keeps serving', async () => {
      const live = api.app.get<LiveReadModels>(LIVE_READ_MODELS);
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] }));
      const send = async (content: string) => expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content })).id as number;
      const before = [await send('one'), await send('two')];
      let during: number | undefined;
      const rebuilder = new ProjectionRebuilder(api.app.get(EVENT_STORE), live, api.app.get(Projector), api.app.get(LOGGER), {
        beforeSwitch: async () => {
          during = await send('written during the rebuild');
        },
      });
      expect(await rebuilder.rebuild('all')).toMatchObject({ phase: 'done', error: null });
      const list = async () =>
        (expectSuccess(await api.as('hamlet').get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [] })).messages as { id: number }[]).map((m) => m.id);
      expect(await list()).toEqual([...before, during]);
      const after = await send('after the switch');
      expect(await list()).toEqual([...before, during, after]);

      expect(await rebuilder.rebuild('users')).toMatchObject({ phase: 'done', error: null });
      expect(await rebuilder.rebuild('user_messages')).toMatchObject({ phase: 'done', error: null });
      expect(await list()).toEqual([...before, during, after]);
      const users = expectSuccess(await api.as('iago').get('/api/v1/users')).members as { email: string }[];
      expect(users.map((u) => u.email)).toContain('hamlet@acme.test');
      const rows = await rebuilder.list();
      expect(rows.every((r) => r.lag === '0')).toBe(true);
    });
  });
});
