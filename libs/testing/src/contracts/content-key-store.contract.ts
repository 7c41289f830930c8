import type { ContentKeyStorePort } from '@app/application';

export type ContentKeyStoreFixture = { store: ContentKeyStorePort; cleanup(): Promise<void> };

/** The behaviour every ContentKeyStorePort adapter must have (docs/security.md, "How erasure works"). */
export function contentKeyStoreContract(adapterName: string, open: () => Promise<ContentKeyStoreFixture>) {
  describe(`ContentKeyStorePort contract: ${adapterName}`, () => {
    let fixture: ContentKeyStoreFixture;
    // Scopes and ids unique to each run, so adapters sharing a database do not see each other.
    const run = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    let n = 0;
    const scope = (kind = 'message') => `${kind}:${run}:${++n}`;
    const made = () => ({ keyId: `${run}-key-${++n}`, wrapped: `v1:wrapped-${n}` });
    const candidate = () => {
      const key = made();
      return Object.assign(() => key, key);
    };
    const messageId = () => Math.floor(Math.random() * 1e9) + ++n;
    const at = (iso: string) => new Date(iso);
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());

    it('creates a scope\'s key from the candidate once, then answers that key, by scope and by id', async () => {
      const s = scope();
      const first = candidate();
      const [created] = await fixture.store.getOrCreate([{ scope: s, candidate: first }]);
      expect(created).toEqual({ keyId: first.keyId, scope: s, wrapped: first.wrapped });
      const unused = jest.fn(made);
      const [again] = await fixture.store.getOrCreate([{ scope: s, candidate: unused }]);
      expect(again).toEqual(created);
      // No key is made (nor wrapped) for a scope that has one.
      expect(unused).not.toHaveBeenCalled();
      expect(await fixture.store.get(first.keyId)).toEqual(created);
    });

    it('answers a batch in order, one key per scope, and null for an id it never had', async () => {
      const [a, b] = [scope(), scope()];
      const keys = await fixture.store.getOrCreate([{ scope: a, candidate: candidate() }, { scope: b, candidate: candidate() }, { scope: a, candidate: candidate() }]);
      expect(keys.map((k) => k.scope)).toEqual([a, b, a]);
      expect(keys[2].keyId).toBe(keys[0].keyId);
      expect(keys[1].keyId).not.toBe(keys[0].keyId);
      expect(await fixture.store.get(`${run}-never`)).toBeNull();
    });

    it('destroys nothing before its time, then the key is gone and the scope gets a new key id', async () => {
      const s = scope();
      const [key] = await fixture.store.getOrCreate([{ scope: s, candidate: candidate() }]);
      await fixture.store.scheduleDestroy(s, at('2030-01-31T00:00:00Z'));
      expect(await fixture.store.destroyDue(at('2030-01-30T23:59:59Z'), 100)).toBe(0);
      expect(await fixture.store.get(key.keyId)).toEqual(key);
      expect(await fixture.store.destroyDue(at('2030-01-31T00:00:00Z'), 100)).toBeGreaterThanOrEqual(1);
      expect(await fixture.store.get(key.keyId)).toBe('gone');
      const fresh = candidate();
      const [next] = await fixture.store.getOrCreate([{ scope: s, candidate: fresh }]);
      expect(next.keyId).toBe(fresh.keyId);
      expect(await fixture.store.get(key.keyId)).toBe('gone');
    });

    it('keeps the earlier of two destruction times, and ignores a scope without a live key', async () => {
      const s = scope();
      const [key] = await fixture.store.getOrCreate([{ scope: s, candidate: candidate() }]);
      await fixture.store.scheduleDestroy(s, at('2031-03-01T00:00:00Z'));
      await fixture.store.scheduleDestroy(s, at('2031-05-01T00:00:00Z'));
      await expect(fixture.store.scheduleDestroy(scope(), at('2031-03-01T00:00:00Z'))).resolves.toBeUndefined();
      await fixture.store.destroyDue(at('2031-03-02T00:00:00Z'), 1000);
      expect(await fixture.store.get(key.keyId)).toBe('gone');
    });

    it('destroys at most `limit` keys per call, the rest on the next', async () => {
      const scopes = [scope(), scope(), scope()];
      const keys = await fixture.store.getOrCreate(scopes.map((s) => ({ scope: s, candidate: candidate() })));
      for (const s of scopes) await fixture.store.scheduleDestroy(s, at('2001-01-01T00:00:00Z'));
      // Earlier runs of this suite on a shared database may have left due keys: drain in twos.
      let calls = 0;
      while ((await Promise.all(keys.map((k) => fixture.store.get(k.keyId)))).some((k) => k !== 'gone')) {
        expect(await fixture.store.destroyDue(at('2001-01-02T00:00:00Z'), 2)).toBeLessThanOrEqual(2);
        expect(++calls).toBeLessThan(50);
      }
      expect(calls).toBeGreaterThanOrEqual(2);
    });

    it('a topic key outlives the deletion of one message of the topic, and goes with the last', async () => {
      const t = scope('topic');
      const [m1, m2] = [messageId(), messageId()];
      const [key] = await fixture.store.getOrCreate([{ scope: t, candidate: candidate(), members: [m1] }]);
      await fixture.store.getOrCreate([{ scope: t, candidate: candidate(), members: [m2] }]);
      expect(await fixture.store.releaseMessage(m1)).toEqual([]);
      expect(await fixture.store.releaseMessage(m1)).toEqual([]);
      expect(await fixture.store.releaseMessage(m2)).toEqual([t]);
      await fixture.store.scheduleDestroy(t, at('2002-01-01T00:00:00Z'));
      expect(await fixture.store.destroyDue(at('2002-01-02T00:00:00Z'), 1000)).toBeGreaterThanOrEqual(1);
      expect(await fixture.store.get(key.keyId)).toBe('gone');
    });

    it('a topic that gained a message after it was marked keeps its key (and is unmarked)', async () => {
      const t = scope('topic');
      const m1 = messageId();
      const [key] = await fixture.store.getOrCreate([{ scope: t, candidate: candidate(), members: [m1] }]);
      await fixture.store.releaseMessage(m1);
      await fixture.store.scheduleDestroy(t, at('2003-01-01T00:00:00Z'));
      await fixture.store.getOrCreate([{ scope: t, candidate: candidate(), members: [messageId()] }]);
      await fixture.store.destroyDue(at('2003-01-02T00:00:00Z'), 1000);
      expect(await fixture.store.get(key.keyId)).toEqual(key);
      await fixture.store.destroyDue(at('2003-01-02T00:00:00Z'), 1000);
      expect(await fixture.store.get(key.keyId)).toEqual(key);
    });

    it('keeps named marks', async () => {
      const name = `mark-${run}`;
      expect(await fixture.store.mark(name)).toBeNull();
      await fixture.store.setMark(name, 'a');
      await fixture.store.setMark(name, 'b');
      expect(await fixture.store.mark(name)).toBe('b');
    });
  });
}
