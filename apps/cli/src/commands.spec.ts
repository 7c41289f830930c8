import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommanderError } from 'commander';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, EVENT_STORE, type EventStorePort, SCHEDULER, type SchedulerPort, UserQueries, verifyPassword, CredentialVault } from '@app/application';
import type { AppConfig } from '@app/config';
import { DomainError, usersStream } from '@app/domain';
import { makeTempDir, testConfig, userCreated, userDeactivated } from '@app/testing';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

/**
 * The operator's commands against a real application context on embedded adapters in a temporary
 * directory. As in main.ts, every command opens its own context and closes it, so consecutive
 * commands share state only through the data directory, as separate CLI processes do.
 */
describe('CLI commands', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let out: string[];
  let err: string[];

  const withApp = async <T>(fn: (app: INestApplicationContext) => Promise<T>): Promise<T> => {
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dir.path) }), { logger: false });
    await app.init();
    try {
      return await fn(app);
    } finally {
      await app.close();
    }
  };

  /** Runs one command line (without the program name); returns what it printed. */
  const run = async (...args: string[]) => {
    out = [];
    err = [];
    const program = buildProgram(withApp, { out: (line) => out.push(line), err: (line) => err.push(line) });
    await program.parseAsync(args, { from: 'user' });
    return { out, err };
  };

  /** Runs a command line that must fail; returns the error and what was printed. */
  const fail = async (...args: string[]) => {
    const error = await run(...args).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (error === undefined) throw new Error(`expected "${args.join(' ')}" to fail; it printed ${JSON.stringify(out)}`);
    return { error: error as Error, out, err };
  };

  beforeEach(() => {
    dir = makeTempDir('cli-spec-');
  });
  afterEach(() => dir.remove());

  it('a CLI process never runs scheduled deliveries (the server or worker does): nothing is armed here', async () => {
    await withApp(async (app) => {
      expect(app.get<AppConfig>(APP_CONFIG).runScheduledJobs).toBe(false);
      expect(await app.get<SchedulerPort>(SCHEDULER).pendingJobIds()).toEqual([]);
    });
  });

  it('create-realm creates an organization and reports its id', async () => {
    const { out } = await run('create-realm', '--string-id', 'acme', '--name', 'Acme Corp', '--description', 'Makers of everything');
    expect(out).toEqual(['Created organization acme (id 1).']);

    const second = await run('create-realm', '--string-id', 'lear', '--name', 'Lear');
    expect(second.out).toEqual(['Created organization lear (id 2).']);
  });

  it('create-realm rejects a subdomain already in use with the domain error', async () => {
    await run('create-realm', '--string-id', 'acme', '--name', 'Acme Corp');
    const { error } = await fail('create-realm', '--string-id', 'acme', '--name', 'Other');
    expect(error).toBeInstanceOf(DomainError);
    expect(error.message).toBe("Subdomain 'acme' is already in use");
  });

  it('create-realm requires its options (commander reports the missing one)', async () => {
    const { error, err } = await fail('create-realm', '--name', 'Acme Corp');
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).code).toBe('commander.missingMandatoryOptionValue');
    expect(err.join('\n')).toContain("required option '--string-id <id>' not specified");
  });

  describe('with an organization', () => {
    beforeEach(async () => {
      await run('create-realm', '--string-id', 'acme', '--name', 'Acme Corp');
    });

    it('create-user --role administrator prints the account and an API key of 32 alphanumerics', async () => {
      const { out } = await run('create-user', '--email', 'iago@acme.test', '--full-name', 'Iago', '--role', 'administrator');
      expect(out).toHaveLength(2);
      expect(out[0]).toMatch(/^Created user iago@acme\.test \(id \d+, administrator\) in acme\.$/);
      expect(out[1]).toMatch(/^API key: [A-Za-z0-9]{32}$/);

      // The key printed is the one that authenticates; the role is in the read model.
      const apiKey = out[1].slice('API key: '.length);
      const userId = Number(/id (\d+)/.exec(out[0])![1]);
      await withApp(async (app) => {
        const users = app.get(UserQueries);
        expect(await users.credentialsByEmail(1, 'IAGO@acme.test')).toMatchObject({ user_id: userId, password_id: null });
        expect(await users.apiKeyById(userId)).toBe(apiKey);
        expect(await users.byId(1, userId)).toMatchObject({ email: 'iago@acme.test', full_name: 'Iago', role: 200, is_admin: true });
      });
    });

    it('create-user defaults to a member, and two users get different ids and keys', async () => {
      const hamlet = await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
      const cordelia = await run('create-user', '--email', 'cordelia@acme.test', '--full-name', 'Cordelia Lear');
      expect(hamlet.out[0]).toMatch(/\(id \d+, member\) in acme\.$/);
      expect(hamlet.out[0]).not.toBe(cordelia.out[0]);
      expect(hamlet.out[1]).not.toBe(cordelia.out[1]);
    });

    it('create-user --password stores a bcrypt hash of the password in the credential store, never the password', async () => {
      await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet', '--password', 'to-be-or-not');
      await withApp(async (app) => {
        const credentials = await app.get(UserQueries).credentialsByEmail(1, 'hamlet@acme.test');
        const hash = await app.get(CredentialVault).passwordHash(credentials!.password_id!);
        expect(hash).toMatch(/^\$2[aby]\$/);
        expect(await verifyPassword('to-be-or-not', hash!)).toBe(true);
      });
      expect(out.join('\n')).not.toContain('to-be-or-not');
    });

    it('create-user rejects an unknown role before touching the store (commander)', async () => {
      const { error, err } = await fail('create-user', '--email', 'x@acme.test', '--full-name', 'X Y', '--role', 'czar');
      expect(error).toBeInstanceOf(CommanderError);
      expect((error as CommanderError).code).toBe('commander.invalidArgument');
      expect(err.join('\n')).toContain("option '--role <role>' argument 'czar' is invalid. expected one of owner, administrator, moderator, member, guest");
      const list = await run('list-users', '--json');
      expect(JSON.parse(list.out.join('\n'))).toEqual([]);
    });

    it('create-user with an email already in use fails with the domain error, case-insensitively', async () => {
      await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
      const { error, out } = await fail('create-user', '--email', 'Hamlet@ACME.test', '--full-name', 'Another Hamlet');
      expect(error).toBeInstanceOf(DomainError);
      expect(error.message).toBe("Email 'Hamlet@ACME.test' already in use");
      expect(out).toEqual([]);
    });

    it('create-user applies the full-name rules', async () => {
      const { error } = await fail('create-user', '--email', 'x@acme.test', '--full-name', 'Bad*Name');
      expect(error.message).toBe('Invalid characters in name!');
    });

    it('list-users prints an aligned table in id order', async () => {
      await run('create-user', '--email', 'desdemona@acme.test', '--full-name', 'Desdemona', '--role', 'owner');
      await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
      await run('create-user', '--email', 'polonius@acme.test', '--full-name', 'Polonius', '--role', 'guest');

      const { out } = await run('list-users');
      // A fresh data directory: user ids come from the 'user' sequence, 1, 2, 3.
      expect(out).toEqual([
        'ID  EMAIL                FULL NAME    ROLE    STATUS',
        '1   desdemona@acme.test  Desdemona    owner   active',
        '2   hamlet@acme.test     King Hamlet  member  active',
        '3   polonius@acme.test   Polonius     guest   active',
      ]);
    });

    it('list-users marks deactivated accounts and bots (facts appended by another process)', async () => {
      await run('create-user', '--email', 'desdemona@acme.test', '--full-name', 'Desdemona', '--role', 'owner');
      await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
      // Another process (the server) appends to the store; the next CLI context catches up at boot.
      await withApp(async (app) => {
        const store = app.get<EventStorePort>(EVENT_STORE);
        const { revision } = await store.readStream(usersStream(1));
        await store.appendToStream(
          usersStream(1),
          [userDeactivated(2, 1), userCreated({ userId: 3, email: 'deploy-bot@acme.test', fullName: 'Deploy bot', isBot: true, botType: 'generic', botOwnerId: 1 })].map(
            (e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { schemaVersion: 1 } }),
          ),
          { expectedRevision: revision },
        );
      });

      const { out } = await run('list-users');
      expect(out.slice(1)).toEqual([
        '1   desdemona@acme.test   Desdemona    owner   active',
        '2   hamlet@acme.test      King Hamlet  member  deactivated',
        '3   deploy-bot@acme.test  Deploy bot   bot     active',
      ]);
      const json = JSON.parse((await run('list-users', '--json')).out.join('\n'));
      expect(json.map((u: { is_active: boolean; is_bot: boolean }) => [u.is_active, u.is_bot])).toEqual([[true, false], [false, false], [true, true]]);
    });

    it('list-users --json prints the users as JSON', async () => {
      await run('create-user', '--email', 'iago@acme.test', '--full-name', 'Iago', '--role', 'administrator');
      await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
      const { out } = await run('list-users', '--json');
      const listed = JSON.parse(out.join('\n'));
      expect(listed).toEqual([
        { user_id: expect.any(Number), email: 'iago@acme.test', full_name: 'Iago', role: 'administrator', is_active: true, is_bot: false },
        { user_id: expect.any(Number), email: 'hamlet@acme.test', full_name: 'King Hamlet', role: 'member', is_active: true, is_bot: false },
      ]);
      expect(listed[0].user_id).toBeLessThan(listed[1].user_id);
    });

    it('list-users --realm names the organization; an unknown one is an error', async () => {
      await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
      expect(JSON.parse((await run('list-users', '--realm', 'acme', '--json')).out.join('\n'))).toHaveLength(1);
      const { error } = await fail('list-users', '--realm', 'nowhere');
      expect(error).toBeInstanceOf(DomainError);
    });

    it('with several organizations, a command without --realm asks for one', async () => {
      await run('create-realm', '--string-id', 'lear', '--name', 'Lear');
      const { error } = await fail('create-user', '--email', 'x@acme.test', '--full-name', 'X Y');
      expect(error).toBeInstanceOf(DomainError);
      expect(error.message).toBe('Several organizations exist; pass --realm <string_id>.');

      const { out } = await run('create-user', '--email', 'goneril@lear.test', '--full-name', 'Goneril', '--realm', 'lear');
      expect(out[0]).toMatch(/in lear\.$/);
      expect(JSON.parse((await run('list-users', '--realm', 'acme', '--json')).out.join('\n'))).toEqual([]);
    });
  });

  it('before any organization exists, user commands say to run create-realm first', async () => {
    const created = await fail('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
    expect(created.error).toBeInstanceOf(DomainError);
    expect(created.error.message).toBe('No organization exists yet; run create-realm first.');
    const listed = await fail('list-users');
    expect(listed.error.message).toBe('No organization exists yet; run create-realm first.');
  });

  it('an unknown command is rejected by commander', async () => {
    const { error, err } = await fail('drop-everything');
    expect(error).toBeInstanceOf(CommanderError);
    expect(err.join('\n')).toContain("unknown command 'drop-everything'");
  });
});
