import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateRealmCommand, CreateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { makeTempDir, testConfig } from '@app/testing';
import { runCli } from '../../../test/support';
import { CliModule } from './cli.module';

/** projections, rebuild and history from the CLI, each command its own short-lived process. */
jest.setTimeout(60_000);

describe('CLI operations commands', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));

  const run = runCli;

  const installation = async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dir.path) }), { logger: false });
    await app.init();
    const { realmId } = await app.get(CommandBus).execute(new CreateRealmCommand('acme', 'Acme'));
    await app.get(CommandBus).execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: 'ada@acme.test', fullName: 'Ada Lovelace', role: 'owner', password: null }));
    await app.close();
    return dir.path;
  };

  it('lists the projections, rebuilds them all and keeps the new copy across restarts', async () => {
    const dir = await installation();
    const { out: table } = await run(dir, ['projections']);
    expect(table[0]).toMatch(/^PROJECTION\s+COLLECTION\s+CHECKPOINT\s+LAG\s+COPY$/);
    expect(table.find((l) => l.startsWith('users '))).toMatch(/^users\s+users\s+\d+\s+0\s+read-models\.sqlite$/);

    const { out, err } = await run(dir, ['rebuild']);
    expect(out).toEqual([expect.stringMatching(/^Rebuilt all from 2 events in [\d.]+ s; now serving (read-models-.+\.sqlite)\.$/)]);
    expect(err).toEqual(['rebuild all: replaying (0/2 events)', expect.stringMatching(/^rebuild all: switching/), expect.stringMatching(/^rebuild all: done/)]);
    const copy = /now serving (.+)\.$/.exec(out[0])![1];
    // The layout names the new copy; the old file is gone.
    expect(JSON.parse(readFileSync(join(dir, 'read-models.layout.json'), 'utf8'))).toEqual({ default: copy, collections: {}, checkpoints: {} });
    expect(existsSync(join(dir, 'read-models.sqlite'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.sqlite')).sort()).toEqual(['content-keys.sqlite', 'credentials.sqlite', 'events.sqlite', 'mail-outbox.sqlite', 'presence.sqlite', 'snapshots.sqlite', copy].sort()); // presence, snapshots, the mail outbox, the credential store and the content-key store are stores of their own, not read models

    const listed = JSON.parse((await run(dir, ['projections', '--json'])).out[0]) as { name: string; copy: string; lag: string }[];
    expect(listed.every((p) => p.copy === copy && p.lag === '0')).toBe(true);
    expect((await run(dir, ['list-users', '--json'])).out[0]).toContain('"email": "ada@acme.test"');
  });

  it('rebuilds one projection and refuses an unknown one', async () => {
    const dir = await installation();
    const { out } = await run(dir, ['rebuild', 'users']);
    const copy = /now serving (.+)\.$/.exec(out[0])![1];
    expect(JSON.parse(readFileSync(join(dir, 'read-models.layout.json'), 'utf8'))).toEqual({
      default: 'read-models.sqlite', collections: { users: copy }, checkpoints: { users: copy },
    });
    expect((await run(dir, ['list-users', '--json'])).out[0]).toContain('"email": "ada@acme.test"');
    await expect(run(dir, ['rebuild', 'nope'])).rejects.toThrow('No projection named "nope"');
  });

  it('prints the history of a user as a table or JSON', async () => {
    const dir = await installation();
    const { out } = await run(dir, ['history', '--user', 'ada@acme.test']);
    expect(out[0]).toMatch(/^POSITION\s+WHEN\s+WHO\s+WHAT\s+STREAM\s+CHANGES$/);
    expect(out[1]).toMatch(/^2\s+\S+Z\s+-\s+UserCreated\s+users-\d+$/);
    const json = JSON.parse((await run(dir, ['history', '--realm-settings', '--json'])).out[0]);
    expect(json).toEqual([]);
    const registry = JSON.parse((await run(dir, ['history', '--stream', 'realm_registry-server', '--json'])).out[0]);
    expect(registry[0]).toMatchObject({ type: 'RealmCreated', position: '1', actor_id: null, schema_version: 1 });
    await expect(run(dir, ['history'])).rejects.toThrow('Pass exactly one of');
  });
});
