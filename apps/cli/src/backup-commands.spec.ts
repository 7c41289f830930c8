import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { join } from 'node:path';
import { CreateRealmCommand, CreateUserCommand, UserQueries } from '@app/application';
import { operatorActor } from '@app/domain';
import { makeTempDir, testConfig } from '@app/testing';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

/** export-events from one installation, import-events into a fresh one: the users come back. */
describe('CLI backup commands', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));

  const run = async (dataDir: string, argv: string[]) => {
    const out: string[] = [];
    const program = buildProgram(async (fn) => {
      const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dataDir) }), { logger: false });
      await app.init();
      try {
        return await fn(app);
      } finally {
        await app.close();
      }
    }, { out: (l) => out.push(l), err: () => undefined });
    await program.parseAsync(['node', 'cli', ...argv]);
    return out;
  };

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
    expect(await run(source.path, ['export-events', '--out', file])).toEqual([`Exported 2 events to ${file}.`]);
    expect(await run(target.path, ['import-events', '--in', file])).toEqual([`Imported 2 events from ${file}.`]);
    expect(await run(target.path, ['list-users', '--json'])).toEqual([expect.stringContaining('"email": "ada@acme.test"')]);
    await expect(run(target.path, ['import-events', '--in', file])).rejects.toThrow('The target event store is not empty');
  });
});
