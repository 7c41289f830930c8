import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthenticationService,
  CREDENTIALS_MIGRATED_MARK,
  CredentialVault,
  hashPassword,
  InvalidApiKeyError,
  isLegacyCredentialEvent,
} from '@app/application';
import { CryptoRandom, openSqlite } from '@app/infrastructure';
import { openCredentialDatabase, SqliteCredentialStore } from '@app/infrastructure/embedded/sqlite-credential-store';
import { migrateEmbeddedCredentials } from '@app/infrastructure/embedded/sqlite-credential-migration';
import { loadCredentialKey } from '@app/infrastructure/system/credential-key';
import { makeTempDir, testConfig } from '@app/testing';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

/**
 * Issue 35 item 2, existing data directories: a data directory as the server wrote it before the
 * credential store (API keys and password hashes in the events and in the credentials read
 * model, in their free pages and WAL) is migrated, resumably, and afterwards not one byte of any
 * file in it holds a key or a hash, while every account still logs in with its key and password.
 */
jest.setTimeout(120_000);

type Row = { event_id: string; type: string; data: string; metadata: string };

describe('migrate-credentials (embedded)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let out: string[];
  const keys = new Map<string, string>(); // email → current API key
  const secrets = new Set<string>();
  let oldHamletKey: string;
  /** The old-style log as an export taken before the upgrade would hold it (outside every data directory). */
  let oldExport: ReturnType<typeof makeTempDir>;
  /** The data directory the CLI runs on (the migrated one, or the one an old export is imported into). */
  let target: string;

  const withApp = async <T>(fn: (app: INestApplicationContext) => Promise<T>): Promise<T> => {
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(target) }), { logger: false });
    await app.init();
    try {
      return await fn(app);
    } finally {
      await app.close();
    }
  };
  const run = async (...args: string[]) => {
    out = [];
    await buildProgram(withApp, { out: (line) => out.push(line), err: () => undefined }).parseAsync(args, { from: 'user' });
    return out;
  };
  const apiKeyPrinted = (lines: string[]) => lines.find((l) => l.startsWith('API key: '))!.slice('API key: '.length);

  /** Every file under the data directory that holds one of the secrets, and which. */
  const hits = (root = dir.path): string[] => {
    const files = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : [join(d, n)]));
    const found: string[] = [];
    for (const file of files(root)) {
      const bytes = readFileSync(file);
      for (const secret of secrets) if (bytes.includes(Buffer.from(secret, 'utf8'))) found.push(`${file.slice(root.length + 1)} holds ${secret.slice(0, 8)}…`);
    }
    return found;
  };

  const legacyEvents = (): number => {
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    try {
      return (db.prepare('SELECT type, data FROM events').all() as Row[]).filter((r) => isLegacyCredentialEvent(r.type, JSON.parse(r.data))).length;
    } finally {
      db.close();
    }
  };

  /**
   * Turns the data directory back into what the server wrote before issue 35: each credential
   * event carries its key and hash (schema version 1), the credentials documents hold them under
   * the old projection's checkpoint, and there is no credential store. One more old-shape event
   * is appended directly: a password change.
   */
  async function downgrade(): Promise<void> {
    const credentialsDb = openCredentialDatabase(dir.path);
    const vault = new CredentialVault(new SqliteCredentialStore(credentialsDb), loadCredentialKey({ dataDir: dir.path }), new CryptoRandom());
    const events = openSqlite(join(dir.path, 'events.sqlite'));
    const update = events.prepare('UPDATE events SET data = ?, metadata = ? WHERE event_id = ?');
    const rows = events.prepare("SELECT event_id, type, data, metadata FROM events WHERE type IN ('UserCreated', 'UserApiKeyRegenerated', 'UserPasswordChanged')").all() as Row[];
    for (const row of rows) {
      const { apiKeyId, passwordId, ...rest } = JSON.parse(row.data) as { apiKeyId?: string; passwordId?: string | null };
      const old: Record<string, unknown> = { ...rest };
      if (apiKeyId !== undefined) old.apiKey = await vault.apiKey(apiKeyId);
      if (passwordId !== undefined) old.passwordHash = passwordId === null ? null : await vault.passwordHash(passwordId);
      for (const value of [old.apiKey, old.passwordHash]) if (typeof value === 'string') secrets.add(value);
      update.run(JSON.stringify(old), JSON.stringify({ ...JSON.parse(row.metadata), schemaVersion: 1 }), row.event_id);
    }
    const legacyHash = await hashPassword('hamlet-legacy-password', 4);
    secrets.add(legacyHash);
    const hamletId = (rows.map((r) => JSON.parse(r.data)).find((d) => d.email === 'hamlet@acme.test') as { userId: number }).userId;
    events
      .prepare("INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) SELECT ?, 'users-1', max(revision) + 1, 'UserPasswordChanged', ?, ?, ? FROM events WHERE stream_id = 'users-1'")
      .run(randomUUID(), JSON.stringify({ realmId: 1, userId: hamletId, passwordHash: legacyHash, actorId: null, at: new Date().toISOString() }), JSON.stringify({ schemaVersion: 1 }), new Date().toISOString());
    events.close();

    const readModels = openSqlite(join(dir.path, 'read-models.sqlite'));
    for (const { id, doc } of readModels.prepare('SELECT id, doc FROM rm_credentials').all() as { id: string; doc: string }[]) {
      const { api_key_id, password_id, ...rest } = JSON.parse(doc) as { api_key_id: string; password_id: string | null };
      const old = { ...rest, api_key: await vault.apiKey(api_key_id), password_hash: password_id === null ? null : await vault.passwordHash(password_id) };
      readModels.prepare('UPDATE rm_credentials SET doc = ? WHERE id = ?').run(JSON.stringify(old), id);
    }
    readModels.prepare("UPDATE checkpoints SET name = 'credentials' WHERE name = 'credentials.v2'").run();
    // What export-events wrote before the upgrade: every event verbatim, at the version it was written with.
    const log = openSqlite(join(dir.path, 'events.sqlite'));
    const lines = (log.prepare('SELECT * FROM events ORDER BY position').all() as (Row & { stream_id: string; revision: number; recorded_at: string })[]).map((r) =>
      JSON.stringify({ streamId: r.stream_id, revision: String(r.revision), id: r.event_id, type: r.type, data: JSON.parse(r.data), metadata: JSON.parse(r.metadata), recordedAt: r.recorded_at }),
    );
    log.close();
    writeFileSync(join(oldExport.path, 'old.ndjson'), `${lines.join('\n')}\n`);
    readModels.close();
    credentialsDb.close();
    for (const file of readdirSync(dir.path).filter((f) => f.startsWith('credentials.'))) rmSync(join(dir.path, file));
  }

  beforeAll(async () => {
    dir = makeTempDir('credential-migration-');
    oldExport = makeTempDir('credential-migration-export-');
    target = dir.path;
    await run('create-realm', '--string-id', 'acme', '--name', 'Acme');
    keys.set('hamlet@acme.test', apiKeyPrinted(await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet', '--password', 'hamlet-password')));
    keys.set('cordelia@acme.test', apiKeyPrinted(await run('create-user', '--email', 'cordelia@acme.test', '--full-name', 'Cordelia Lear', '--password', 'cordelia-password')));
    keys.set('iago@acme.test', apiKeyPrinted(await run('create-user', '--email', 'iago@acme.test', '--full-name', 'Iago', '--role', 'administrator')));
    const bot = await run('create-bot', '--owner', 'cordelia@acme.test', '--name', 'Deploy Bot', '--short-name', 'deploy');
    keys.set(/Created bot (\S+)/.exec(bot[0])![1], apiKeyPrinted(bot));
    oldHamletKey = keys.get('hamlet@acme.test')!;
    keys.set('hamlet@acme.test', (await run('api-key', '--email', 'hamlet@acme.test', '--regenerate'))[0]);
    await downgrade();
    for (const key of [...keys.values(), oldHamletKey]) secrets.add(key);
  });
  afterAll(() => {
    dir?.remove();
    oldExport?.remove();
  });

  it('starts from a data directory with the keys and hashes in its events and read models', () => {
    expect(secrets.size).toBe(4 + 1 + 3); // 4 accounts' keys and hamlet's old one; 2 passwords and the legacy change
    expect(legacyEvents()).toBe(6); // 4 UserCreated, hamlet's UserApiKeyRegenerated, the UserPasswordChanged appended
    const found = hits();
    expect(found.some((h) => h.startsWith('events.sqlite'))).toBe(true);
    expect(found.some((h) => h.startsWith('read-models.sqlite'))).toBe(true);
    expect(existsSync(join(dir.path, 'credentials.sqlite'))).toBe(false);
  });

  it('a run stopped halfway leaves the rest for the next run, and the next run completes it', async () => {
    const events = openSqlite(join(dir.path, 'events.sqlite'));
    const credentialsDb = openCredentialDatabase(dir.path);
    const store = new SqliteCredentialStore(credentialsDb);
    try {
      const killed = migrateEmbeddedCredentials(events, dir.path, store, loadCredentialKey({ dataDir: dir.path }), new CryptoRandom(), {
        batchSize: 2,
        onBatch: ({ migrated }) => {
          if (migrated >= 2) throw new Error('killed halfway');
        },
      });
      await expect(killed).rejects.toThrow('killed halfway');
      expect(await store.mark(CREDENTIALS_MIGRATED_MARK)).toBeNull();
    } finally {
      events.close();
      credentialsDb.close();
    }
    const left = legacyEvents();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(6);

    // The CLI's application boot finishes what is left (the command then reports it done).
    const printed = await run('migrate-credentials');
    expect(printed.join('\n')).toMatch(/already migrated|Migrated/);
    expect(legacyEvents()).toBe(0);
  });

  it('leaves not one byte of a key or a hash in any file of the data directory (events, WAL, free pages, read models, the credential store)', () => {
    const files = readdirSync(dir.path);
    expect(files).toEqual(expect.arrayContaining(['events.sqlite', 'read-models.sqlite', 'credentials.sqlite', 'credentials.key']));
    expect(hits()).toEqual([]);
    expect(statSync(join(dir.path, 'credentials.sqlite')).mode & 0o777).toBe(0o600);
  });

  it('every account still authenticates with its current key and its password; the replaced key and password do not', async () => {
    await withApp(async (app) => {
      const auth = app.get(AuthenticationService);
      for (const [email, key] of keys) expect((await auth.authenticateApiKey(1, email, key)).user.email).toBe(email);
      await expect(auth.authenticateApiKey(1, 'hamlet@acme.test', oldHamletKey)).rejects.toBeInstanceOf(InvalidApiKeyError);
      // The password change appended in the old shape is the one in force.
      expect((await auth.authenticatePassword(1, 'hamlet@acme.test', 'hamlet-legacy-password')).apiKey).toBe(keys.get('hamlet@acme.test'));
      await expect(auth.authenticatePassword(1, 'hamlet@acme.test', 'hamlet-password')).rejects.toThrow('Your username or password is incorrect');
      expect((await auth.authenticatePassword(1, 'cordelia@acme.test', 'cordelia-password')).apiKey).toBe(keys.get('cordelia@acme.test'));
    });
  });

  it('a second run has nothing to do; an export taken afterwards carries no secret', async () => {
    // (and the sibling step, docs/security.md "How erasure works": the boot sealed the message texts)
    expect(await run('migrate-credentials')).toEqual(['Credentials already migrated: the event log holds no API key or password hash.', 'Message texts already sealed: the event log holds none in clear.']);
    const file = join(dir.path, 'export.ndjson');
    await run('export-events', '--out', file, '--no-blobs');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"apiKeyId"');
    for (const secret of secrets) expect(text.includes(secret) ? secret : null).toBeNull();
    rmSync(file);
  });

  it('an export taken before the upgrade, imported into a new data directory, leaves no secret there and every account logs in', async () => {
    const fresh = makeTempDir('credential-migration-import-');
    try {
      target = fresh.path;
      expect(readFileSync(join(oldExport.path, 'old.ndjson'), 'utf8')).toContain(keys.get('cordelia@acme.test'));
      const printed = await run('import-events', '--in', join(oldExport.path, 'old.ndjson'));
      expect(printed).toContain('Moved the credentials of 6 imported events into the credential store.');
      expect(hits(fresh.path)).toEqual([]);
      await withApp(async (app) => {
        const auth = app.get(AuthenticationService);
        for (const [email, key] of keys) expect((await auth.authenticateApiKey(1, email, key)).user.email).toBe(email);
        expect((await auth.authenticatePassword(1, 'hamlet@acme.test', 'hamlet-legacy-password')).apiKey).toBe(keys.get('hamlet@acme.test'));
      });
    } finally {
      target = dir.path;
      fresh.remove();
    }
  });
});
