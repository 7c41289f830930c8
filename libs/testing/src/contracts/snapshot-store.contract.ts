import type { DeciderSnapshot, SnapshotStorePort } from '@app/application';

export type SnapshotStoreFixture = { store: SnapshotStorePort; cleanup(): Promise<void> };

/** The behaviour every SnapshotStorePort adapter must have. */
export function snapshotStoreContract(adapterName: string, open: () => Promise<SnapshotStoreFixture>) {
  describe(`SnapshotStorePort contract: ${adapterName}`, () => {
    let fixture: SnapshotStoreFixture;
    // Stream names unique to each run and test, so adapters sharing a database do not see each other.
    const run = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    let n = 0;
    const nextStream = () => `users-${run}-${++n}`;
    const snapshot = (streamId: string, patch: Partial<DeciderSnapshot> = {}): DeciderSnapshot => ({
      streamId,
      decider: 'users',
      version: '1:abc',
      revision: 99n,
      eventId: '00000000-0000-4000-8000-000000000099',
      state: JSON.stringify({ users: { 1: { email: 'a@example.com' } }, userIdByEmail: { 'a@example.com': 1 } }),
      ...patch,
    });
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());

    it('has nothing for a stream never saved, then gives back exactly what was saved', async () => {
      const stream = nextStream();
      expect(await fixture.store.load(stream, 'users')).toBeUndefined();
      await fixture.store.save(snapshot(stream));
      expect(await fixture.store.load(stream, 'users')).toEqual(snapshot(stream));
    });

    it('removes every snapshot of one decider, and only those', async () => {
      const decider = `push-devices-${run}`;
      const [a, b] = [nextStream(), nextStream()];
      await fixture.store.save(snapshot(a, { decider }));
      await fixture.store.save(snapshot(b, { decider, version: '2:old' }));
      await fixture.store.save(snapshot(a));
      expect(await fixture.store.removeDecider(decider)).toBe(2);
      expect(await fixture.store.load(a, decider)).toBeUndefined();
      expect(await fixture.store.load(b, decider)).toBeUndefined();
      expect((await fixture.store.load(a, 'users'))?.streamId).toBe(a);
      expect(await fixture.store.removeDecider(decider)).toBe(0);
    });

    it('keeps one snapshot per stream and decider', async () => {
      const [a, b] = [nextStream(), nextStream()];
      await fixture.store.save(snapshot(a, { revision: 10n, state: '"a-users"' }));
      await fixture.store.save(snapshot(a, { decider: 'channels', revision: 20n, state: '"a-channels"' }));
      await fixture.store.save(snapshot(b, { revision: 30n, state: '"b-users"' }));
      expect(await fixture.store.load(a, 'users')).toMatchObject({ revision: 10n, state: '"a-users"' });
      expect(await fixture.store.load(a, 'channels')).toMatchObject({ decider: 'channels', revision: 20n, state: '"a-channels"' });
      expect(await fixture.store.load(b, 'users')).toMatchObject({ revision: 30n, state: '"b-users"' });
      expect(await fixture.store.load(b, 'channels')).toBeUndefined();
    });

    it('replaces a snapshot with a later revision, never with an earlier or equal one of the same version', async () => {
      const stream = nextStream();
      await fixture.store.save(snapshot(stream, { revision: 199n, eventId: 'e-199', state: '"at 199"' }));
      await fixture.store.save(snapshot(stream, { revision: 99n, eventId: 'e-99', state: '"at 99"' }));
      expect(await fixture.store.load(stream, 'users')).toMatchObject({ revision: 199n, eventId: 'e-199', state: '"at 199"' });
      await fixture.store.save(snapshot(stream, { revision: 199n, eventId: 'e-other', state: '"again at 199"' }));
      expect(await fixture.store.load(stream, 'users')).toMatchObject({ revision: 199n, eventId: 'e-199', state: '"at 199"' });
      await fixture.store.save(snapshot(stream, { revision: 299n, eventId: 'e-299', state: '"at 299"' }));
      expect(await fixture.store.load(stream, 'users')).toMatchObject({ revision: 299n, eventId: 'e-299', state: '"at 299"' });
    });

    it('replaces a snapshot of another version whatever the revisions', async () => {
      const stream = nextStream();
      await fixture.store.save(snapshot(stream, { version: '1:old', revision: 500n, state: '"old fold"' }));
      await fixture.store.save(snapshot(stream, { version: '2:new', revision: 120n, state: '"new fold"' }));
      expect(await fixture.store.load(stream, 'users')).toMatchObject({ version: '2:new', revision: 120n, state: '"new fold"' });
    });

    it('keeps the newest of concurrent saves', async () => {
      const stream = nextStream();
      const revisions = Array.from({ length: 20 }, (_, i) => BigInt(i * 100 + 99));
      await Promise.all(revisions.map((revision) => fixture.store.save(snapshot(stream, { revision, eventId: `e-${revision}`, state: `"${revision}"` }))));
      expect(await fixture.store.load(stream, 'users')).toMatchObject({ revision: 1999n, eventId: 'e-1999', state: '"1999"' });
    });

    it('stores states of any JSON text, large ones and non-ASCII ones included, unchanged', async () => {
      const stream = nextStream();
      const users = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [i, { email: `user${i}@example.com`, fullName: `Ünïcødé ${i} 🐙`, role: 'member' }]));
      const state = JSON.stringify({ users });
      expect(state.length).toBeGreaterThan(4 * 1024 * 1024);
      await fixture.store.save(snapshot(stream, { state }));
      const loaded = await fixture.store.load(stream, 'users');
      expect(loaded?.state.length).toBe(state.length);
      expect(loaded?.state === state).toBe(true);
    });

    it('deletes every snapshot of the given streams, whatever the decider, and no other', async () => {
      const [a, b, kept] = [nextStream(), nextStream(), nextStream()];
      await fixture.store.save(snapshot(a, { state: '"a-users"' }));
      await fixture.store.save(snapshot(a, { decider: 'channels', state: '"a-channels"' }));
      await fixture.store.save(snapshot(b, { state: '"b"' }));
      await fixture.store.save(snapshot(kept, { state: '"kept"' }));
      await fixture.store.delete([a, b, nextStream()]);
      await fixture.store.delete([]);
      expect(await fixture.store.load(a, 'users')).toBeUndefined();
      expect(await fixture.store.load(a, 'channels')).toBeUndefined();
      expect(await fixture.store.load(b, 'users')).toBeUndefined();
      expect(await fixture.store.load(kept, 'users')).toMatchObject({ state: '"kept"' });
      // A later save starts again.
      await fixture.store.save(snapshot(a, { revision: 1n, state: '"again"' }));
      expect(await fixture.store.load(a, 'users')).toMatchObject({ revision: 1n, state: '"again"' });
    });

    it('keeps stream ids and decider names apart, whatever characters they hold', async () => {
      const stream = nextStream();
      // Joined with a separator, these two keys would be the same.
      await fixture.store.save(snapshot(`b/${stream}`, { decider: 'a', state: '1' }));
      await fixture.store.save(snapshot(stream, { decider: 'a/b', state: '2' }));
      expect(await fixture.store.load(`b/${stream}`, 'a')).toMatchObject({ streamId: `b/${stream}`, decider: 'a', state: '1' });
      expect(await fixture.store.load(stream, 'a/b')).toMatchObject({ streamId: stream, decider: 'a/b', state: '2' });
    });
  });
}
