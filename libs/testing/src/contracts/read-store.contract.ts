import { randomUUID } from 'node:crypto';
import { type CollectionSpec, type ReadStorePort, UniqueConstraintViolationError } from '@app/application';

export type ReadStoreFixture = { store: ReadStorePort; cleanup(): Promise<void> };

type Person = { id: number; name: string; team: string | null; age: number; active: boolean; tags?: string[] };

/** The behaviour every ReadStorePort adapter must have. */
export function readStoreContract(adapterName: string, open: () => Promise<ReadStoreFixture>) {
  describe(`ReadStorePort contract: ${adapterName}`, () => {
    let fixture: ReadStoreFixture;
    let store: ReadStorePort;
    let spec: CollectionSpec;
    const people: Person[] = [
      { id: 1, name: 'ada', team: 'core', age: 36, active: true, tags: ['x'] },
      { id: 2, name: 'bob', team: 'core', age: 25, active: false },
      { id: 3, name: 'cy', team: 'web', age: 41, active: true },
      { id: 4, name: 'di', team: null, age: 30, active: true },
      { id: 5, name: 'ed', team: 'web', age: 25, active: true },
    ];
    const unique = () => `c_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(async () => fixture.cleanup());

    beforeEach(async () => {
      spec = {
        name: unique(),
        fields: [
          { name: 'name', type: 'string' },
          { name: 'team', type: 'string' },
          { name: 'age', type: 'number' },
          { name: 'active', type: 'boolean' },
        ],
        compoundIndexes: [['team', 'age']],
        unique: [['name']],
      };
      await store.ensureCollection(spec);
      await store.ensureCollection(spec); // idempotent
      await store.commit({
        writes: [{ collection: spec.name, ops: people.map((p) => ({ type: 'put' as const, id: String(p.id), doc: p, position: BigInt(p.id) })) }],
        checkpoints: [],
      });
    });
    afterEach(async () => store.dropCollection(spec.name));

    const names = (docs: Person[]) => docs.map((d) => d.name);

    it('gets a document by id exactly as stored, and null for a missing id', async () => {
      expect(await store.get<Person>(spec.name, '1')).toEqual(people[0]);
      expect(await store.get(spec.name, '404')).toBeNull();
    });

    it('gets many documents with the position each was written at', async () => {
      const many = await store.getMany<Person>(spec.name, ['2', '3', '404']);
      expect(many.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: '2', doc: people[1], position: 2n },
        { id: '3', doc: people[2], position: 3n },
      ]);
    });

    it('filters on equality, booleans, null, $in and ranges', async () => {
      expect(names(await store.find<Person>(spec.name, { where: { team: 'core' }, orderBy: [{ field: 'name', direction: 'asc' }] }))).toEqual(['ada', 'bob']);
      expect(names(await store.find<Person>(spec.name, { where: { active: false } }))).toEqual(['bob']);
      expect(names(await store.find<Person>(spec.name, { where: { team: null } }))).toEqual(['di']);
      expect(names(await store.find<Person>(spec.name, { where: { team: { $ne: null } }, orderBy: [{ field: 'name', direction: 'asc' }] }))).toEqual(['ada', 'bob', 'cy', 'ed']);
      expect(names(await store.find<Person>(spec.name, { where: { team: { $ne: 'core' } }, orderBy: [{ field: 'name', direction: 'asc' }] }))).toEqual(['cy', 'di', 'ed']);
      expect(names(await store.find<Person>(spec.name, { where: { name: { $in: ['cy', 'ed', 'zed'] } }, orderBy: [{ field: 'name', direction: 'asc' }] }))).toEqual(['cy', 'ed']);
      expect(names(await store.find<Person>(spec.name, { where: { age: { $gte: 30, $lt: 41 } }, orderBy: [{ field: 'age', direction: 'asc' }] }))).toEqual(['di', 'ada']);
      expect(names(await store.find<Person>(spec.name, { where: { age: { $gt: 25 }, active: true, team: 'web' } }))).toEqual(['cy']);
      expect(await store.find(spec.name, { where: { age: { $gt: null } } })).toEqual([]);
    });

    it('filters and sorts on id', async () => {
      expect(names(await store.find<Person>(spec.name, { where: { id: { $in: ['1', '3'] } }, orderBy: [{ field: 'id', direction: 'desc' }] }))).toEqual(['cy', 'ada']);
    });

    it('sorts on several fields and pages with limit and offset', async () => {
      const sorted = await store.find<Person>(spec.name, { orderBy: [{ field: 'age', direction: 'asc' }, { field: 'name', direction: 'desc' }] });
      expect(names(sorted)).toEqual(['ed', 'bob', 'di', 'ada', 'cy']);
      const page = await store.find<Person>(spec.name, { orderBy: [{ field: 'age', direction: 'desc' }, { field: 'name', direction: 'asc' }], limit: 2, offset: 1 });
      expect(names(page)).toEqual(['ada', 'di']);
    });

    it('counts matching documents', async () => {
      expect(await store.count(spec.name)).toBe(5);
      expect(await store.count(spec.name, { active: true, age: { $lte: 30 } })).toBe(2);
    });

    it('refuses to filter or sort on a field that is not indexed', async () => {
      await expect(store.find(spec.name, { where: { tags: 'x' } })).rejects.toThrow();
      await expect(store.find(spec.name, { orderBy: [{ field: 'tags', direction: 'asc' }] })).rejects.toThrow();
    });

    it('replaces and deletes documents, keeping indexed fields in step', async () => {
      await store.commit({
        writes: [{ collection: spec.name, ops: [
          { type: 'put', id: '1', doc: { ...people[0], team: 'web', age: 37 }, position: 10n },
          { type: 'delete', id: '2' },
        ] }],
        checkpoints: [],
      });
      expect(await store.get<Person>(spec.name, '2')).toBeNull();
      expect(names(await store.find<Person>(spec.name, { where: { team: 'web' }, orderBy: [{ field: 'name', direction: 'asc' }] }))).toEqual(['ada', 'cy', 'ed']);
      expect((await store.getMany<Person>(spec.name, ['1']))[0].position).toBe(10n);
    });

    it('commits documents and checkpoints together, and none of them when one write fails', async () => {
      const checkpoint = `${spec.name}_projection`;
      await store.commit({ writes: [{ collection: spec.name, ops: [{ type: 'put', id: '6', doc: { id: 6, name: 'fay', team: 'web', age: 22, active: true } }] }], checkpoints: [{ name: checkpoint, position: 100n }] });
      expect(await store.getCheckpoint(checkpoint)).toBe(100n);
      expect((await store.getCheckpoints())[checkpoint]).toBe(100n);
      // "ada" is taken: the unique index fails the batch, and nothing of it lands.
      await expect(
        store.commit({
          writes: [{ collection: spec.name, ops: [
            { type: 'put', id: '7', doc: { id: 7, name: 'gus', team: 'web', age: 50, active: true } },
            { type: 'put', id: '8', doc: { id: 8, name: 'ada', team: 'web', age: 50, active: true } },
          ] }],
          checkpoints: [{ name: checkpoint, position: 200n }],
        }),
      ).rejects.toBeInstanceOf(UniqueConstraintViolationError);
      expect(await store.get(spec.name, '7')).toBeNull();
      expect(await store.getCheckpoint(checkpoint)).toBe(100n);
      await store.deleteCheckpoint(checkpoint);
      expect(await store.getCheckpoint(checkpoint)).toBeUndefined();
    });

    it('indexes a field added to an existing collection, including documents already stored', async () => {
      await store.ensureCollection({ ...spec, fields: [...spec.fields, { name: 'rank', type: 'number' }] });
      await store.commit({ writes: [{ collection: spec.name, ops: [{ type: 'put', id: '9', doc: { id: 9, name: 'hal', team: 'web', age: 60, active: true, rank: 1 } }] }], checkpoints: [] });
      expect(names(await store.find<Person>(spec.name, { where: { rank: 1 } }))).toEqual(['hal']);
      expect(await store.count(spec.name, { rank: null })).toBe(5);
    });

    it('drops a unique constraint the spec no longer declares, and queries still answer', async () => {
      await store.ensureCollection({ ...spec, fields: spec.fields.map((f) => (f.name === 'age' ? { ...f, index: false } : f)), unique: [] });
      // "ada" again: allowed now that name is no longer unique.
      await store.commit({ writes: [{ collection: spec.name, ops: [{ type: 'put', id: '9', doc: { id: 9, name: 'ada', team: 'web', age: 70, active: true } }] }], checkpoints: [] });
      expect(await store.count(spec.name, { name: 'ada' })).toBe(2);
      expect(names(await store.find<Person>(spec.name, { where: { team: 'web', age: { $gte: 30 } }, orderBy: [{ field: 'age', direction: 'asc' }] }))).toEqual(['cy', 'ada']);
    });

    it('filters and sorts on a field declared without an index of its own', async () => {
      const lean: CollectionSpec = { name: unique(), fields: [{ name: 'team', type: 'string' }, { name: 'active', type: 'boolean', index: false }, { name: 'age', type: 'number', index: false }] };
      await store.ensureCollection(lean);
      await store.commit({ writes: [{ collection: lean.name, ops: people.map((p) => ({ type: 'put' as const, id: String(p.id), doc: p })) }], checkpoints: [] });
      expect(names(await store.find<Person>(lean.name, { where: { active: true, age: { $lte: 36 } }, orderBy: [{ field: 'age', direction: 'desc' }, { field: 'id', direction: 'asc' }] }))).toEqual(['ada', 'di', 'ed']);
      await store.dropCollection(lean.name);
    });

    it('keeps positions larger than 64 bits exactly', async () => {
      const big = (1n << 100n) + 7n;
      await store.commit({ writes: [{ collection: spec.name, ops: [{ type: 'put', id: '1', doc: people[0], position: big }] }], checkpoints: [{ name: `${spec.name}_big`, position: big }] });
      expect((await store.getMany(spec.name, ['1']))[0].position).toBe(big);
      expect(await store.getCheckpoint(`${spec.name}_big`)).toBe(big);
      await store.deleteCheckpoint(`${spec.name}_big`);
    });

    describe('a collection with integer ids', () => {
      let numbered: CollectionSpec;
      const put = (id: string, p: Person, position?: bigint) => ({ type: 'put' as const, id, doc: p, ...(position === undefined ? {} : { position }) });
      beforeEach(async () => {
        numbered = { name: unique(), fields: [{ name: 'team', type: 'string' }], integerIds: true };
        await store.ensureCollection(numbered);
        await store.ensureCollection(numbered); // idempotent
        // Ids whose text order is not their numeric order: 10 sorts before 9 as text.
        await store.commit({ writes: [{ collection: numbered.name, ops: [put('9', people[0], 1n), put('10', people[1], 2n), put('0', people[2], 3n), put(String(Number.MAX_SAFE_INTEGER), people[3], 4n)] }], checkpoints: [] });
      });
      afterEach(async () => store.dropCollection(numbered.name));

      it('gets documents by id, with the ids as text, and finds nothing for an id that is not an integer id', async () => {
        expect(await store.get<Person>(numbered.name, '10')).toEqual(people[1]);
        expect(await store.get<Person>(numbered.name, '0')).toEqual(people[2]);
        for (const id of ['010', '9.0', ' 9', '9 ', '-9', '1e1', 'abc', '', String(Number.MAX_SAFE_INTEGER + 1)]) expect(await store.get(numbered.name, id)).toBeNull();
        const many = await store.getMany<Person>(numbered.name, ['10', '9', '09', 'x', '404', String(Number.MAX_SAFE_INTEGER)]);
        expect(many.map((m) => [m.doc.name, m.id, m.position]).sort()).toEqual([
          ['ada', '9', 1n],
          ['bob', '10', 2n],
          ['di', String(Number.MAX_SAFE_INTEGER), 4n],
        ]);
      });

      it('filters on id by equality, inequality and $in', async () => {
        const sorted = (docs: Person[]) => names(docs).sort();
        expect(sorted(await store.find<Person>(numbered.name, { where: { id: '10' } }))).toEqual(['bob']);
        expect(sorted(await store.find<Person>(numbered.name, { where: { id: '010' } }))).toEqual([]);
        expect(sorted(await store.find<Person>(numbered.name, { where: { id: { $in: ['9', '0', 'x'] } } }))).toEqual(['ada', 'cy']);
        expect(sorted(await store.find<Person>(numbered.name, { where: { id: { $ne: '9' } } }))).toEqual(['bob', 'cy', 'di']);
        expect(sorted(await store.find<Person>(numbered.name, { where: { id: { $ne: 'x' } } }))).toEqual(['ada', 'bob', 'cy', 'di']);
        expect(await store.count(numbered.name, { id: { $in: ['10', '11'] } })).toBe(1);
      });

      it('refuses to sort by id or ask for a range of ids', async () => {
        await expect(store.find(numbered.name, { orderBy: [{ field: 'id', direction: 'asc' }] })).rejects.toThrow(/integer ids/);
        await expect(store.find(numbered.name, { where: { id: { $gt: '5' } } })).rejects.toThrow(/integer ids/);
        await expect(store.count(numbered.name, { id: { $lte: '5' } })).rejects.toThrow(/integer ids/);
      });

      it('replaces, keeps later positions and deletes by id', async () => {
        await store.commit({ writes: [{ collection: numbered.name, ops: [put('10', { ...people[1], name: 'bo' }, 5n), put('9', { ...people[0], name: 'old' }, 0n)] }], checkpoints: [] });
        expect((await store.get<Person>(numbered.name, '10'))!.name).toBe('bo');
        expect((await store.get<Person>(numbered.name, '9'))!.name).toBe('ada'); // written at a later position
        await store.commit({ writes: [{ collection: numbered.name, ops: [{ type: 'delete', id: '10' }, { type: 'delete', id: 'x' }] }], checkpoints: [] });
        expect(await store.get(numbered.name, '10')).toBeNull();
        expect(await store.count(numbered.name)).toBe(3);
      });

      it('refuses a put of an id that is not an integer id, and none of the batch lands', async () => {
        const checkpoint = `${numbered.name}_projection`;
        for (const id of ['010', 'abc', '-1', '1.5']) {
          await expect(
            store.commit({ writes: [{ collection: numbered.name, ops: [put('11', people[4]), put(id, people[4])] }], checkpoints: [{ name: checkpoint, position: 9n }] }),
          ).rejects.toThrow(/integer ids/);
        }
        expect(await store.get(numbered.name, '11')).toBeNull();
        expect(await store.getCheckpoint(checkpoint)).toBeUndefined();
      });
    });

    it('reports healthy', async () => {
      expect((await store.health()).ok).toBe(true);
    });
  });
}
