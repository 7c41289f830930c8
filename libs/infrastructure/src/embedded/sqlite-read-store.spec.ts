import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CollectionSpec, UniqueConstraintViolationError } from '@app/application';
import { openSqlite } from './sqlite';
import { SqliteReadStore } from './sqlite-read-store';

type Person = { name: string; team: number; email: string; active: boolean };

const spec: CollectionSpec = {
  name: 'people',
  fields: [
    { name: 'team', type: 'number' },
    { name: 'email', type: 'string', index: false },
    { name: 'active', type: 'boolean', index: false },
  ],
  unique: [['email']],
};

/**
 * What the embedded read store does beyond the port's contract suite: the writer's `previous`
 * hint (insert for new documents, update of the changed indexed columns for known ones) must give
 * the same result as a full upsert even when the hint is stale, and a large load into an empty
 * collection (indexes built after the rows) must keep unique indexes enforced.
 */
describe('SqliteReadStore writes', () => {
  let db: ReturnType<typeof openSqlite>;
  let store: SqliteReadStore;
  const person = (name: string, team: number, active = true): Person => ({ name, team, email: `${name}@example.com`, active });
  const put = (id: string, doc: Person, position: bigint, previous?: Person | null) =>
    store.commit({ writes: [{ collection: 'people', ops: [{ type: 'put', id, doc, position, ...(previous === undefined ? {} : { previous }) }] }], checkpoints: [] });
  const teamIds = async (team: number) => (await store.find<Person>('people', { where: { team }, orderBy: [{ field: 'id', direction: 'asc' }] })).map((p) => p.name);
  const indexCount = () => (db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_people' AND sql IS NOT NULL`).get() as { n: number }).n;

  beforeEach(async () => {
    db = openSqlite(':memory:');
    store = new SqliteReadStore(db);
    await store.ensureCollection(spec);
  });
  afterEach(() => db.close());

  it('updates only what changed, and queries see the new indexed values', async () => {
    await put('1', person('ann', 1), 1n, null);
    await put('1', { ...person('ann', 2), active: false }, 2n, person('ann', 1));
    expect(await teamIds(1)).toEqual([]);
    expect(await teamIds(2)).toEqual(['ann']);
    expect(await store.count('people', { active: false })).toBe(1);
    expect(await store.get('people', '1')).toEqual({ ...person('ann', 2), active: false });
  });

  it('falls back to the full write when the previous document is stale', async () => {
    await put('1', person('ann', 1), 1n);
    // Another writer moved ann to team 3 in between; this writer believes she is still in team 1.
    await put('1', person('ann', 3), 2n);
    await put('1', { ...person('ann', 1), name: 'ann' }, 3n, person('ann', 1));
    expect(await teamIds(3)).toEqual([]);
    expect(await teamIds(1)).toEqual(['ann']);

    // "New" per the hint, but stored after all: still an upsert honouring positions.
    await put('1', person('ann', 4), 4n, null);
    expect(await teamIds(4)).toEqual(['ann']);
    await put('1', person('ann', 5), 3n, null);
    expect(await teamIds(4)).toEqual(['ann']);

    // Known per the hint, but deleted meanwhile: written again.
    await store.commit({ writes: [{ collection: 'people', ops: [{ type: 'delete', id: '1' }] }], checkpoints: [] });
    await put('1', person('ann', 6), 6n, person('ann', 4));
    expect(await teamIds(6)).toEqual(['ann']);
  });

  it('never replaces a newer document, with or without the hint', async () => {
    await put('1', person('ann', 1), 5n, null);
    await put('1', person('ann', 2), 4n, person('ann', 1));
    expect(await teamIds(1)).toEqual(['ann']);
  });

  it('loads a large batch into an empty collection and builds its indexes after the rows', async () => {
    const ops = Array.from({ length: 2500 }, (_, i) => ({ type: 'put' as const, id: String(i), doc: person(`p${i}`, i % 10), position: BigInt(i + 1), previous: null }));
    const before = indexCount();
    await store.commit({ writes: [{ collection: 'people', ops }], checkpoints: [{ name: 'people', position: 2500n }] });
    expect(indexCount()).toBe(before);
    expect(await store.count('people', { team: 3 })).toBe(250);
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM rm_people WHERE f_team = 3`).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('USING INDEX');
    expect(await store.getCheckpoint('people')).toBe(2500n);
  });

  it('drops the indexes a spec no longer declares, keeping the documents and the declared ones', async () => {
    const indexNames = () => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_people' AND sql IS NOT NULL ORDER BY name`).pluck().all();
    expect(indexNames()).toEqual(['ix_rm_people_team', 'ux_rm_people_email']);
    await put('1', person('ann', 1), 1n, null);
    // A later version: team is no longer indexed, email no longer unique, active indexed.
    const newer: CollectionSpec = { name: 'people', fields: [{ name: 'team', type: 'number', index: false }, { name: 'email', type: 'string', index: false }, { name: 'active', type: 'boolean' }] };
    await store.ensureCollection(newer);
    expect(indexNames()).toEqual(['ix_rm_people_active']);
    expect(await teamIds(1)).toEqual(['ann']);
    await put('2', person('ann', 1), 2n, null); // the same e-mail again: no unique index any more
    expect(await store.count('people', { active: true })).toBe(2);
    // An index of someone else's naming on the table is left alone.
    db.exec('CREATE INDEX by_hand ON rm_people (f_team)');
    await store.ensureCollection(newer);
    expect(indexNames()).toEqual(['by_hand', 'ix_rm_people_active']);
  });

  it('refuses a large first load that breaks a unique index, keeping nothing of the batch', async () => {
    const ops = Array.from({ length: 2500 }, (_, i) => ({ type: 'put' as const, id: String(i), doc: person(i === 2499 ? 'p0' : `p${i}`, 1), position: BigInt(i + 1), previous: null }));
    await expect(store.commit({ writes: [{ collection: 'people', ops }], checkpoints: [{ name: 'people', position: 2500n }] })).rejects.toBeInstanceOf(
      UniqueConstraintViolationError,
    );
    expect(await store.count('people')).toBe(0);
    expect(await store.getCheckpoint('people')).toBeUndefined();
    await put('1', person('ann', 1), 1n, null);
    await expect(put('2', person('ann', 1), 2n, null)).rejects.toBeInstanceOf(UniqueConstraintViolationError);
  });
});

describe('SqliteReadStore collections with integer ids', () => {
  let db: ReturnType<typeof openSqlite>;
  let store: SqliteReadStore;
  const numbered: CollectionSpec = { name: 'notes', fields: [{ name: 'team', type: 'number' }], integerIds: true };
  const tableSql = (name: string) => db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) as string;

  beforeEach(() => {
    db = openSqlite(':memory:');
    store = new SqliteReadStore(db);
  });
  afterEach(() => db.close());

  it('keys the table by the ids as numbers, so that growing ids append to it', async () => {
    // A file (WAL) database: what a commit writes is the frames it adds to the WAL.
    const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
    const file = openSqlite(join(dir, 'read-models.sqlite'));
    try {
      const fileStore = new SqliteReadStore(file);
      await fileStore.ensureCollection(numbered);
      await fileStore.ensureCollection({ name: 'texts', fields: [{ name: 'team', type: 'number' }] });
      const tableSqlOf = (name: string) => file.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) as string;
      expect(tableSqlOf('rm_notes')).toContain('(id INTEGER PRIMARY KEY,');
      expect(tableSqlOf('rm_texts')).toContain('WITHOUT ROWID');
      /** Documents of ~500 bytes with growing ids, committed 8 at a time as a live projector does: the WAL frames written. */
      const framesWritten = async (collection: string) => {
        let frames = 0;
        for (let first = 1; first <= 3000; first += 8) {
          file.pragma('wal_checkpoint(TRUNCATE)');
          const ops = Array.from({ length: 8 }, (_, k) => ({ type: 'put' as const, id: String(first + k), doc: { team: 1, text: 'x'.repeat(500) }, position: BigInt(first + k), previous: null }));
          await fileStore.commit({ writes: [{ collection, ops }], checkpoints: [] });
          frames += (file.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0].log;
        }
        return frames;
      };
      const integer = await framesWritten('notes');
      const text = await framesWritten('texts');
      // Text keys put 10..99 before 2, 100..999 before 11, …: each commit inserts inside the
      // tree, where a full page splits and its neighbours are rewritten (about 10 frames a
      // commit here against 5.5).
      expect(integer).toBeLessThan(0.7 * text);
      expect((await fileStore.getMany<{ team: number }>('notes', ['1', '10', '2999'])).map((d) => d.id).sort()).toEqual(['1', '10', '2999']);
    } finally {
      file.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the text keys of a table made before, and still refuses ids that are not integer ids', async () => {
    db.exec('CREATE TABLE rm_notes (id TEXT PRIMARY KEY, doc TEXT NOT NULL, position TEXT) WITHOUT ROWID');
    db.prepare('INSERT INTO rm_notes (id, doc, position) VALUES (?, ?, NULL)').run('7', JSON.stringify({ team: 1 }));
    await store.ensureCollection(numbered);
    expect(tableSql('rm_notes')).toContain('WITHOUT ROWID');
    await store.commit({ writes: [{ collection: 'notes', ops: [{ type: 'put', id: '12', doc: { team: 2 } }] }], checkpoints: [] });
    expect(await store.get('notes', '7')).toEqual({ team: 1 });
    expect((await store.getMany('notes', ['12', '7', 'x'])).map((d) => d.id).sort()).toEqual(['12', '7']);
    expect(await store.count('notes', { id: { $in: ['7', '12'] } })).toBe(2);
    await expect(store.commit({ writes: [{ collection: 'notes', ops: [{ type: 'put', id: '012', doc: { team: 2 } }] }], checkpoints: [] })).rejects.toThrow(/integer ids/);
    expect(await store.get('notes', '012')).toBeNull();
  });

  it('loads a large first batch with integer ids, its indexes built after the rows', async () => {
    await store.ensureCollection(numbered);
    const ops = Array.from({ length: 2500 }, (_, i) => ({ type: 'put' as const, id: String(2500 - i), doc: { team: i % 3 }, position: BigInt(i + 1), previous: null }));
    await store.commit({ writes: [{ collection: 'notes', ops }], checkpoints: [] });
    expect(await store.count('notes', { team: 1 })).toBe(833);
    expect(await store.get('notes', '2500')).toEqual({ team: 0 });
  });
});
