import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { join } from 'node:path';
import { AddRealmEmojiCommand, BLOB_STORE, type BlobStorePort, CreateRealmCommand, CreateUserCommand, CreateUserGroupCommand, RealmEmojiQueries, UserQueries } from '@app/application';
import { NAMED_USER_GROUP_ID_BASE, operatorActor } from '@app/domain';
import { openSqlite } from '@app/infrastructure';
import { makeTempDir, testConfig, TINY_PNG } from '@app/testing';
import { runCli } from '../../../test/support';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CliModule } from './cli.module';

/** export-events from one installation, import-events into a fresh one: the users come back. */
jest.setTimeout(60_000);

describe('CLI backup commands', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));

  const run = async (dataDir: string, argv: string[]) => (await runCli(dataDir, argv)).out;

  it('moves an installation through an NDJSON export', async () => {
    const source = makeTempDir();
    const target = makeTempDir();
    dirs.push(source, target);
    const app: INestApplicationContext = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(source.path) }), { logger: false });
    await app.init();
    const { realmId } = await app.get(CommandBus).execute(new CreateRealmCommand('acme', 'Acme'));
    await app.get(CommandBus).execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: 'ada@acme.test', fullName: 'Ada Lovelace', role: 'owner', password: null }));
    await app.close();

    const file = join(source.path, 'backup.ndjson');
    expect(await run(source.path, ['export-events', '--out', file, '--no-blobs'])).toEqual([`Exported 2 events to ${file}.`]);
    expect(existsSync(`${file}.blobs`)).toBe(false);
    expect(await run(target.path, ['import-events', '--in', file])).toEqual([`Imported 2 events from ${file}.`]);
    expect(await run(target.path, ['list-users', '--json'])).toEqual([expect.stringContaining('"email": "ada@acme.test"')]);
    // The id sequences continue above the imported ids: a new user does not reuse Ada's id.
    const created = await run(target.path, ['create-user', '--email', 'bob@acme.test', '--full-name', 'Bob']);
    const ids = JSON.parse((await run(target.path, ['list-users', '--json']))[0]).map((u: { user_id: number }) => u.user_id);
    expect(new Set(ids).size).toBe(2);
    expect(created[0]).toMatch(/^Created user bob@acme.test \(id \d+, member\)/);
    await expect(run(target.path, ['import-events', '--in', file])).rejects.toThrow('The target event store is not empty');
  });

  it('user groups: after an import, and with the sequences restored from before the groups, a new group takes an id above the log\'s', async () => {
    const source = makeTempDir();
    const target = makeTempDir();
    dirs.push(source, target);
    const boot = async (dataDir: string) => {
      const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dataDir) }), { logger: false });
      await app.init();
      return app;
    };
    const createGroup = async (app: INestApplicationContext, realmId: number, userId: number, name: string): Promise<number> =>
      (await app.get(CommandBus).execute(
        new CreateUserGroupCommand({ actor: { realmId, userId, role: 'owner', isBot: false } }, { name, description: '', members: [userId], subgroups: [], settings: {} }),
      )).groupId;

    const app = await boot(source.path);
    const { realmId } = await app.get(CommandBus).execute(new CreateRealmCommand('acme', 'Acme'));
    const { userId } = await app.get(CommandBus).execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: 'ada@acme.test', fullName: 'Ada Lovelace', role: 'owner', password: null }));
    expect(await createGroup(app, realmId, userId, 'support')).toBe(NAMED_USER_GROUP_ID_BASE + 1);
    await app.close();

    const file = join(source.path, 'backup.ndjson');
    await run(source.path, ['export-events', '--out', file, '--no-blobs']);
    await run(target.path, ['import-events', '--in', file]);
    const imported = await boot(target.path);
    expect(await createGroup(imported, realmId, userId, 'backend')).toBe(NAMED_USER_GROUP_ID_BASE + 2);
    await imported.close();

    // The sequences' store restored from a backup taken before any group: the boot scan moves user_group above the log's.
    const db = openSqlite(join(target.path, 'events.sqlite'));
    db.exec("DELETE FROM sequences; DELETE FROM sequences_log_scan");
    db.close();
    const restored = await boot(target.path);
    expect(await createGroup(restored, realmId, userId, 'frontend')).toBe(NAMED_USER_GROUP_ID_BASE + 3);
    await restored.close();
  });

  it('takes the blobs along: an emoji image comes back byte for byte, and a damaged blob is refused', async () => {
    const source = makeTempDir();
    const target = makeTempDir();
    const damaged = makeTempDir();
    dirs.push(source, target, damaged);
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(source.path) }), { logger: false });
    await app.init();
    const bus = app.get(CommandBus);
    const { realmId } = await bus.execute(new CreateRealmCommand('acme', 'Acme'));
    const { userId } = await bus.execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: 'ada@acme.test', fullName: 'Ada', role: 'owner', password: null }));
    const actor = { ...operatorActor(realmId), userId, role: 'owner' as const, isBot: false };
    await bus.execute(new AddRealmEmojiCommand({ actor } as never, 'party', [{ size: TINY_PNG.length, data: TINY_PNG }]));
    await app.close();

    const file = join(source.path, 'backup.ndjson');
    expect(await run(source.path, ['export-events', '--out', file])).toEqual([expect.stringMatching(/^Exported \d+ events/), `Exported 1 blobs to ${file}.blobs.`]);
    expect(await run(target.path, ['import-events', '--in', file])).toEqual([expect.stringMatching(/^Imported \d+ events/), `Imported 1 blobs from ${file}.blobs.`]);

    const restored = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(target.path) }), { logger: false });
    await restored.init();
    try {
      const emoji = Object.values(await restored.get(RealmEmojiQueries).list(realmId)) as { name: string; source_url: string }[];
      expect(emoji.map((e) => e.name)).toEqual(['party']);
      const key = `emoji/${realmId}/${emoji[0].source_url.split('/').pop()}`;
      const blob = await restored.get<BlobStorePort>(BLOB_STORE).get(key);
      expect(blob && Buffer.compare(blob.data, TINY_PNG)).toBe(0);
      expect(blob?.contentType).toBe('image/png');
    } finally {
      await restored.close();
    }

    // A blob changed on the way is refused before anything is imported.
    const index = readFileSync(join(`${file}.blobs`, 'index.ndjson'), 'utf8');
    const key = (JSON.parse(index.split('\n')[0]) as { key: string }).key;
    writeFileSync(join(`${file}.blobs`, ...key.split('/')), Buffer.from('not the image'));
    await expect(run(damaged.path, ['import-events', '--in', file])).rejects.toThrow(`blob ${key}: the file does not match its SHA-256 in the index`);
  });
});
