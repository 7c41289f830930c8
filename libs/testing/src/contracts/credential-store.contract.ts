import type { CredentialEntry, CredentialStorePort } from '@app/application';

export type CredentialStoreFixture = { store: CredentialStorePort; cleanup(): Promise<void> };

/** The behaviour every CredentialStorePort adapter must have. */
export function credentialStoreContract(adapterName: string, open: () => Promise<CredentialStoreFixture>) {
  describe(`CredentialStorePort contract: ${adapterName}`, () => {
    let fixture: CredentialStoreFixture;
    // Ids and users unique to each run, so adapters sharing a database do not see each other.
    const run = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    let n = 0;
    const nextUser = () => Math.floor(Math.random() * 1e9) + ++n;
    const entry = (userId: number, patch: Partial<CredentialEntry> = {}): CredentialEntry => ({
      id: `${run}-${++n}`,
      realmId: 1,
      userId,
      kind: 'api_key',
      digest: 'ab'.repeat(32),
      sealed: `v1:sealed-${n}`,
      ...patch,
    });
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());

    it('has nothing under an id never stored, then gives back exactly what was stored', async () => {
      const stored = entry(nextUser());
      expect(await fixture.store.get(stored.id)).toBeNull();
      await fixture.store.put(stored);
      expect(await fixture.store.get(stored.id)).toEqual(stored);
      const password = entry(stored.userId, { kind: 'password', digest: null });
      await fixture.store.put(password);
      expect(await fixture.store.get(password.id)).toEqual(password);
    });

    it('keeps the first entry stored under an id (a retried write or migration step changes nothing)', async () => {
      const first = entry(nextUser());
      await fixture.store.put(first);
      await fixture.store.put({ ...first, sealed: 'v1:other', digest: 'cd'.repeat(32) });
      expect(await fixture.store.get(first.id)).toEqual(first);
    });

    it('removes one entry, and removing an absent one is no error', async () => {
      const stored = entry(nextUser());
      await fixture.store.put(stored);
      await fixture.store.remove(stored.id);
      expect(await fixture.store.get(stored.id)).toBeNull();
      await expect(fixture.store.remove(stored.id)).resolves.toBeUndefined();
    });

    it('prunes a user\'s entries of one kind stored before the kept one, never the kept one, later ones, other kinds or other users', async () => {
      const user = nextUser();
      const other = nextUser();
      const [old1, old2, kept, later] = [entry(user), entry(user), entry(user), entry(user)];
      const password = entry(user, { kind: 'password', digest: null });
      const othersKey = entry(other);
      for (const e of [old1, password, othersKey, old2, kept, later]) {
        await fixture.store.put(e);
        await new Promise((resolve) => setTimeout(resolve, 2)); // distinct store clocks where the adapter uses one
      }
      expect(await fixture.store.pruneBefore(user, 'api_key', kept.id)).toBe(2);
      expect(await fixture.store.get(old1.id)).toBeNull();
      expect(await fixture.store.get(old2.id)).toBeNull();
      for (const e of [kept, later, password, othersKey]) expect(await fixture.store.get(e.id)).toEqual(e);
      expect(await fixture.store.pruneBefore(user, 'api_key', 'no-such-entry')).toBe(0);
      expect(await fixture.store.get(kept.id)).toEqual(kept);
    });

    it('keeps named marks', async () => {
      const name = `mark-${run}`;
      expect(await fixture.store.mark(name)).toBeNull();
      await fixture.store.setMark(name, 'one');
      await fixture.store.setMark(name, 'two');
      expect(await fixture.store.mark(name)).toBe('two');
    });
  });
}
