import type { PresenceStorePort } from '@app/application';

export type PresenceStoreFixture = { store: PresenceStorePort; cleanup(): Promise<void> };

/** The behaviour every PresenceStorePort adapter must have (UserPresence + PresenceSequence). */
export function presenceStoreContract(adapterName: string, open: () => Promise<PresenceStoreFixture>) {
  describe(`PresenceStorePort contract: ${adapterName}`, () => {
    let fixture: PresenceStoreFixture;
    // Organization ids unique to each test, so adapters sharing a database do not see each other.
    let realm = Math.floor(Date.now() / 1000) * 10;
    const nextRealm = () => ++realm;
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());

    it('has no row before the first save, then the saved times with update id 1', async () => {
      const r = nextRealm();
      const user = r * 100 + 1;
      expect(await fixture.store.get(user)).toBeNull();
      expect(await fixture.store.save(r, user, { lastActiveTime: null, lastConnectedTime: 1000.5 })).toBe(1);
      expect(await fixture.store.get(user)).toEqual({ userId: user, realmId: r, lastActiveTime: null, lastConnectedTime: 1000.5, lastUpdateId: 1 });
    });

    it('numbers saves per organization, overwriting a user\'s row', async () => {
      const [a, b] = [nextRealm(), nextRealm()];
      expect(await fixture.store.save(a, a * 100 + 1, { lastActiveTime: 10, lastConnectedTime: 10 })).toBe(1);
      expect(await fixture.store.save(a, a * 100 + 2, { lastActiveTime: 20, lastConnectedTime: 20 })).toBe(2);
      expect(await fixture.store.save(b, b * 100 + 1, { lastActiveTime: 20, lastConnectedTime: 20 })).toBe(1);
      expect(await fixture.store.save(a, a * 100 + 1, { lastActiveTime: 30, lastConnectedTime: 40 })).toBe(3);
      expect(await fixture.store.get(a * 100 + 1)).toMatchObject({ lastActiveTime: 30, lastConnectedTime: 40, lastUpdateId: 3 });
    });

    it('lists an organization\'s rows by user id, filtered by connection time and update id', async () => {
      const r = nextRealm();
      await fixture.store.save(r, r * 100 + 3, { lastActiveTime: 100, lastConnectedTime: 100 });
      await fixture.store.save(r, r * 100 + 1, { lastActiveTime: 50, lastConnectedTime: 50 });
      await fixture.store.save(r, r * 100 + 2, { lastActiveTime: null, lastConnectedTime: 200 });
      const ids = (rows: { userId: number }[]) => rows.map((x) => x.userId - r * 100);
      expect(ids(await fixture.store.list(r, { connectedSince: 0 }))).toEqual([1, 2, 3]);
      expect(ids(await fixture.store.list(r, { connectedSince: 100 }))).toEqual([2, 3]);
      expect(ids(await fixture.store.list(r, { connectedSince: 0, afterUpdateId: 1 }))).toEqual([1, 2]);
      expect(ids(await fixture.store.list(r, { connectedSince: 0, afterUpdateId: 3 }))).toEqual([]);
      expect(await fixture.store.list(nextRealm(), { connectedSince: 0 })).toEqual([]);
    });

    it('gives concurrent saves distinct increasing ids', async () => {
      const r = nextRealm();
      const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => fixture.store.save(r, r * 100 + i, { lastActiveTime: i, lastConnectedTime: i })));
      expect([...ids].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });
  });
}
