import type { BatchPuncturer, ContentKeyStorePort, StoredContentKey } from '@app/application';

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
    /** The message ids of each batch scope the tests make (the store never reads a scope's range: ContentKeys does). */
    const batchIds = new Map<string, number[]>();
    const punctureCalls: { batch: StoredContentKey; punctured: number[] }[] = [];
    /** A puncturer as ContentKeys is one, with stand-in crypto: the row's value lists the ids whose keys are left. */
    const noPuncture: BatchPuncturer = (batch, punctured) => {
      punctureCalls.push({ batch, punctured: [...punctured].sort((a, b) => a - b) });
      const held = batch.wrapped.startsWith('v1:left:') ? (JSON.parse(batch.wrapped.slice('v1:left:'.length)) as number[]) : (batchIds.get(batch.scope) ?? []);
      const left = held.filter((id) => !punctured.has(id));
      return left.length > 0 ? `v1:left:${JSON.stringify(left)}` : null;
    };
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
      expect(await fixture.store.destroyDue(at('2030-01-30T23:59:59Z'), 100, noPuncture)).toBe(0);
      expect(await fixture.store.get(key.keyId)).toEqual(key);
      expect(await fixture.store.destroyDue(at('2030-01-31T00:00:00Z'), 100, noPuncture)).toBeGreaterThanOrEqual(1);
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
      await fixture.store.destroyDue(at('2031-03-02T00:00:00Z'), 1000, noPuncture);
      expect(await fixture.store.get(key.keyId)).toBe('gone');
    });

    it('destroys at most `limit` keys per call, the rest on the next', async () => {
      const scopes = [scope(), scope(), scope()];
      const keys = await fixture.store.getOrCreate(scopes.map((s) => ({ scope: s, candidate: candidate() })));
      for (const s of scopes) await fixture.store.scheduleDestroy(s, at('2001-01-01T00:00:00Z'));
      // Earlier runs of this suite on a shared database may have left due keys: drain in twos.
      let calls = 0;
      while ((await Promise.all(keys.map((k) => fixture.store.get(k.keyId)))).some((k) => k !== 'gone')) {
        expect(await fixture.store.destroyDue(at('2001-01-02T00:00:00Z'), 2, noPuncture)).toBeLessThanOrEqual(2);
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
      expect(await fixture.store.destroyDue(at('2002-01-02T00:00:00Z'), 1000, noPuncture)).toBeGreaterThanOrEqual(1);
      expect(await fixture.store.get(key.keyId)).toBe('gone');
    });

    it('a topic that gained a message after it was marked keeps its key (and is unmarked)', async () => {
      const t = scope('topic');
      const m1 = messageId();
      const [key] = await fixture.store.getOrCreate([{ scope: t, candidate: candidate(), members: [m1] }]);
      await fixture.store.releaseMessage(m1);
      await fixture.store.scheduleDestroy(t, at('2003-01-01T00:00:00Z'));
      await fixture.store.getOrCreate([{ scope: t, candidate: candidate(), members: [messageId()] }]);
      await fixture.store.destroyDue(at('2003-01-02T00:00:00Z'), 1000, noPuncture);
      expect(await fixture.store.get(key.keyId)).toEqual(key);
      await fixture.store.destroyDue(at('2003-01-02T00:00:00Z'), 1000, noPuncture);
      expect(await fixture.store.get(key.keyId)).toEqual(key);
    });

    it('punctures a batch when a message of it is due: its row keeps its id and holds what the puncturer answers, once', async () => {
      const b = scope('messages');
      const [m1, m2, m3] = [messageId(), messageId(), messageId()];
      batchIds.set(b, [m1, m2, m3]);
      const [batch] = await fixture.store.getOrCreate([{ scope: b, candidate: candidate() }]);
      await fixture.store.schedulePuncture(m2, b, at('2004-02-01T00:00:00Z'));
      await fixture.store.schedulePuncture(m2, b, at('2004-01-01T00:00:00Z'));
      punctureCalls.length = 0;
      expect(await fixture.store.destroyDue(at('2003-12-31T23:59:59Z'), 1000, noPuncture)).toBe(0);
      expect(punctureCalls).toEqual([]);
      expect(await fixture.store.get(batch.keyId)).toEqual(batch);
      // Due at the earlier of its two times.
      expect(await fixture.store.destroyDue(at('2004-01-01T00:00:00Z'), 1000, noPuncture)).toBeGreaterThanOrEqual(1);
      expect(punctureCalls).toContainEqual({ batch, punctured: [m2] });
      const punctured = { keyId: batch.keyId, scope: b, wrapped: `v1:left:${JSON.stringify([m1, m3])}` };
      expect(await fixture.store.get(batch.keyId)).toEqual(punctured);
      // Done once: the next run finds nothing of it; the scope still answers the same row, and no key is made.
      punctureCalls.length = 0;
      await fixture.store.destroyDue(at('2004-01-02T00:00:00Z'), 1000, noPuncture);
      expect(punctureCalls.filter((c) => c.batch.scope === b)).toEqual([]);
      const unused = jest.fn(made);
      expect(await fixture.store.getOrCreate([{ scope: b, candidate: unused }])).toEqual([punctured]);
      expect(unused).not.toHaveBeenCalled();

      // The last ones punctured: the row is destroyed, and the scope gets a new key.
      await fixture.store.schedulePuncture(m1, b, at('2004-03-01T00:00:00Z'));
      await fixture.store.schedulePuncture(m3, b, at('2004-03-01T00:00:00Z'));
      await fixture.store.destroyDue(at('2004-03-01T00:00:00Z'), 1000, noPuncture);
      expect(punctureCalls).toContainEqual({ batch: punctured, punctured: [m1, m3].sort((x, y) => x - y) });
      expect(await fixture.store.get(batch.keyId)).toBe('gone');
      const [again] = await fixture.store.getOrCreate([{ scope: b, candidate: candidate() }]);
      expect(again.keyId).not.toBe(batch.keyId);
    });

    it('a puncture of a scope without a live key is done and changes nothing else', async () => {
      const b = scope('messages');
      await fixture.store.schedulePuncture(messageId(), b, at('2005-01-01T00:00:00Z'));
      punctureCalls.length = 0;
      expect(await fixture.store.destroyDue(at('2005-01-02T00:00:00Z'), 1000, noPuncture)).toBeGreaterThanOrEqual(1);
      expect(punctureCalls.filter((c) => c.batch.scope === b)).toEqual([]);
      await fixture.store.destroyDue(at('2005-01-02T00:00:00Z'), 1000, noPuncture);
      expect(punctureCalls.filter((c) => c.batch.scope === b)).toEqual([]);
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
