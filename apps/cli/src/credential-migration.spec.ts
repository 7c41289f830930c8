import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthenticationService,
  CREDENTIALS_MIGRATED_MARK,
  CredentialVault,
  EMAIL_CHANGES,
  hashPassword,
  InvalidApiKeyError,
  isLegacySecretEvent,
  LegacyPushTokenCommand,
  PushRegistrationQueries,
  RemoveClientDeviceCommand,
  READ_STORE,
  type ReadStorePort,
} from '@app/application';
import { CryptoRandom, openSqlite } from '@app/infrastructure';
import { openCredentialDatabase, SqliteCredentialStore } from '@app/infrastructure/embedded/sqlite-credential-store';
import { migrateEmbeddedCredentials } from '@app/infrastructure/embedded/sqlite-credential-migration';
import { loadCredentialKey } from '@app/infrastructure/system/credential-key';
import { makeTempDir, needlesOf, scanFiles, testConfig, tokenIdOf } from '@app/testing';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

/**
 * Issue 35 item 2, existing data directories: a data directory as the server wrote it before the
 * credential store (API keys and password hashes in the events and in the credentials read
 * model; push keys, encrypted push registrations and legacy push tokens in the push-device
 * events, the push registrations read model and the push devices' snapshots; email confirmation
 * keys in the email-change events and their read model; all in free pages and WAL too) is
 * migrated, resumably, and afterwards not one byte of any file in it holds one of them, while
 * every account still logs in with its key and password and the push sender gets the current
 * push secrets.
 */
jest.setTimeout(120_000);

type Row = { event_id: string; type: string; data: string; metadata: string };

/** A valid E2EE push key: 0x31, then 32 random bytes. */
const pushKey = () => Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');

describe('migrate-credentials (embedded)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let out: string[];
  const keys = new Map<string, string>(); // email → current API key
  const secrets = new Set<string>();
  let oldHamletKey: string;
  /** The push secrets and email confirmation keys of the old events. */
  const push = {
    firstKey: pushKey(), key: pushKey(), firstRegistration: `encrypted-registration-${randomBytes(12).toString('hex')}`,
    registration: `encrypted-registration-${randomBytes(12).toString('hex')}`, apns: randomBytes(32).toString('hex'), removedFcm: `fcm-token-${randomBytes(12).toString('hex')}`,
  };
  const confirmationKeys = { revoked: randomBytes(24).toString('hex'), confirmed: randomBytes(24).toString('hex') };
  let hamletId: number;
  let cordeliaId: number;
  /** The entries the migration is to keep: the current key, registration and token, named after their old events. */
  let livePushEntries: string[] = [];
  /** How many old events carry a secret: 4 UserCreated, hamlet's key regeneration and password change, 6 push events, 3 email-change events. */
  const OLD_EVENTS = 6 + 6 + 3;
  /** The old-style log as an export taken before the upgrade would hold it (outside every data directory). */
  let oldExport: ReturnType<typeof makeTempDir>;
  /** The data directory the CLI runs on (the migrated one, or the one an old export is imported into). */
  let target: string;

  const withApp = async <T>(fn: (app: INestApplicationContext) => Promise<T>): Promise<T> => {
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(target) }), { logger: false, abortOnError: false });
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
  const hits = (root = dir.path): string[] => scanFiles(root, needlesOf('secret', secrets)).map((h) => `${h.source} holds ${h.needle} (${h.form})`);

  const legacyEvents = (): number => {
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    try {
      return (db.prepare('SELECT type, data FROM events').all() as Row[]).filter((r) => isLegacySecretEvent(r.type, JSON.parse(r.data))).length;
    } finally {
      db.close();
    }
  };

  /**
   * The push registrations and email changes of before issue 35's second step, appended as that
   * server wrote them: hamlet's device registered, its key and token rotated, an APNs token and an
   * FCM token added and the FCM one removed (schema version 1, secrets in clear); cordelia's
   * email change requested twice (the second revoking the first) and confirmed, with the keys in
   * clear. Their read models and the push devices' snapshot as that server left them too.
   */
  function appendOldPushAndEmailChanges(events: ReturnType<typeof openSqlite>, readModels: ReturnType<typeof openSqlite>): void {
    const at = new Date().toISOString();
    const append = events.prepare(
      'INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) SELECT ?, ?, coalesce(max(revision) + 1, 0), ?, ?, ?, ? FROM events WHERE stream_id = ?',
    );
    const add = (stream: string, type: string, data: object): string => {
      const id = randomUUID();
      append.run(id, stream, type, JSON.stringify({ realmId: 1, ...data, at }), JSON.stringify({ schemaVersion: 1 }), at, stream);
      return id;
    };
    const device = { userId: hamletId, deviceId: 901 };
    const stream = `push_devices-${hamletId}`;
    add(stream, 'ClientDeviceRegistered', device);
    add(stream, 'PushDeviceRegistered', {
      ...device, pushKey: push.firstKey, pushKeyId: 1, tokenKind: 'fcm', tokenId: tokenIdOf('phone'), bouncerPublicKey: 'pub', encryptedPushRegistration: push.firstRegistration,
    });
    const keyRotated = add(stream, 'PushKeyRotated', { ...device, oldPushKeyId: 1, pushKey: push.key, pushKeyId: 2 });
    const tokenRotated = add(stream, 'PushTokenRotated', { ...device, oldTokenId: tokenIdOf('phone'), tokenKind: 'fcm', tokenId: tokenIdOf('phone-2'), bouncerPublicKey: 'pub', encryptedPushRegistration: push.registration });
    const apnsAdded = add(stream, 'LegacyPushTokenAdded', { userId: hamletId, kind: 'apns', token: push.apns, tokenId: tokenIdOf(push.apns), iosAppId: 'org.zulip.Zulip' });
    livePushEntries = [`push_key:${keyRotated}`, `push_registration:${tokenRotated}`, `push_token:${apnsAdded}`].sort();
    add(stream, 'LegacyPushTokenAdded', { userId: hamletId, kind: 'fcm', token: push.removedFcm, tokenId: tokenIdOf(push.removedFcm), iosAppId: null });
    const last = add(stream, 'LegacyPushTokenRemoved', { userId: hamletId, kind: 'fcm', token: push.removedFcm, reason: 'removed' });
    const settings = `user_settings-${cordeliaId}`;
    const change = { userId: cordeliaId, oldEmail: 'cordelia@acme.test', newEmail: 'lear@acme.test', expiresAt: at, actorId: cordeliaId };
    add(settings, 'EmailChangeRequested', { ...change, token: confirmationKeys.revoked, revokedTokens: [] });
    add(settings, 'EmailChangeRequested', { ...change, token: confirmationKeys.confirmed, revokedTokens: [confirmationKeys.revoked] });
    add(settings, 'EmailChangeConfirmed', { userId: cordeliaId, token: confirmationKeys.confirmed, oldEmail: change.oldEmail, newEmail: change.newEmail });

    // The read models of that server: legacy tokens in the push registrations (checkpoint
    // push_registrations.v2), email changes keyed by their keys; the push devices' snapshot with the keys and tokens.
    const doc = { user_id: hamletId, realm_id: 1, devices: {}, legacy_tokens: [{ kind: 'apns', token: push.apns, ios_app_id: 'org.zulip.Zulip' }] };
    readModels.prepare('INSERT INTO rm_push_registrations (id, doc) VALUES (?, ?)').run(String(hamletId), JSON.stringify(doc));
    readModels.prepare("UPDATE checkpoints SET name = 'push_registrations.v2' WHERE name = 'push_registrations.v3'").run();
    for (const key of Object.values(confirmationKeys)) {
      readModels.prepare('INSERT INTO rm_email_changes (id, doc) VALUES (?, ?)').run(key, JSON.stringify({ token: key, user_id: cordeliaId, realm_id: 1, status: 'revoked' }));
    }
    const snapshots = openSqlite(join(dir.path, 'snapshots.sqlite'));
    const state = { devices: { 901: { pushKey: push.key, pushKeyId: 2, tokenKind: 'fcm', tokenId: tokenIdOf('phone-2') } }, legacy: [{ kind: 'apns', token: push.apns, tokenId: tokenIdOf(push.apns) }] };
    snapshots
      .prepare("INSERT OR REPLACE INTO snapshots (stream_id, decider, version, revision, event_id, state) VALUES (?, 'push-devices', '2', 6, ?, ?)")
      .run(stream, last, JSON.stringify(state));
    snapshots.close();
    for (const secret of [...Object.values(push), ...Object.values(confirmationKeys)]) secrets.add(secret);
  }

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
    hamletId = (rows.map((r) => JSON.parse(r.data)).find((d) => d.email === 'hamlet@acme.test') as { userId: number }).userId;
    cordeliaId = (rows.map((r) => JSON.parse(r.data)).find((d) => d.email === 'cordelia@acme.test') as { userId: number }).userId;
    events
      .prepare("INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) SELECT ?, 'users-1', max(revision) + 1, 'UserPasswordChanged', ?, ?, ? FROM events WHERE stream_id = 'users-1'")
      .run(randomUUID(), JSON.stringify({ realmId: 1, userId: hamletId, passwordHash: legacyHash, actorId: null, at: new Date().toISOString() }), JSON.stringify({ schemaVersion: 1 }), new Date().toISOString());
    const readModels = openSqlite(join(dir.path, 'read-models.sqlite'));
    appendOldPushAndEmailChanges(events, readModels);
    events.close();

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

  it('starts from a data directory with the keys, hashes, push secrets and confirmation keys in its events, read models and snapshots', () => {
    expect(secrets.size).toBe(4 + 1 + 3 + 6 + 2); // 4 accounts' keys and hamlet's old one; 2 passwords and the legacy change; 6 push secrets; 2 confirmation keys
    expect(legacyEvents()).toBe(OLD_EVENTS);
    const found = hits();
    expect(found.some((h) => h.startsWith('events.sqlite'))).toBe(true);
    expect(found.some((h) => h.startsWith('read-models.sqlite'))).toBe(true);
    expect(found.some((h) => h.startsWith('snapshots.sqlite'))).toBe(true);
    for (const secret of [push.key, push.apns, confirmationKeys.confirmed]) expect(found.some((h) => h.includes(` holds secret ${secret.slice(0, 6)}…`))).toBe(true);
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
    expect(left).toBeLessThan(OLD_EVENTS);

    // The CLI's application boot finishes what is left (the command then reports it done).
    const printed = await run('migrate-credentials');
    expect(printed.join('\n')).toMatch(/already migrated|Migrated/);
    expect(legacyEvents()).toBe(0);
  });

  it('leaves not one byte of a key, a hash, a push secret or a confirmation key in any file of the data directory (events, WAL, free pages, read models, snapshots, the credential store)', () => {
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

  it('the push sender gets the current push secrets from the credential store; the email changes are kept by their keys\' digests', async () => {
    await withApp(async (app) => {
      expect(await app.get(PushRegistrationQueries).targets(1, hamletId)).toEqual({
        devices: [{ deviceId: 901, pushKeyId: 2, pushKey: push.key, tokenKind: 'fcm', encryptedPushRegistration: push.registration }],
        legacyTokens: [{ kind: 'apns', token: push.apns, iosAppId: 'org.zulip.Zulip' }],
      });
      const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
      const changes = await app.get<ReadStorePort>(READ_STORE).find<{ key_digest: string; status: string }>(EMAIL_CHANGES);
      expect(changes.map((c) => [c.key_digest, c.status]).sort()).toEqual([[digest(confirmationKeys.confirmed), 'used'], [digest(confirmationKeys.revoked), 'revoked']].sort());
    });
    // The store keeps only the secrets in use, named after their old events: not the replaced key and registration, nor the removed token.
    const store = openSqlite(join(dir.path, 'credentials.sqlite'));
    try {
      const entries = store.prepare("SELECT id FROM credentials WHERE kind LIKE 'push_%' ORDER BY id").all() as { id: string }[];
      expect(entries.map((e) => e.id)).toEqual(livePushEntries);
    } finally {
      store.close();
    }
  });

  it('removing the migrated token and device through the application removes their entries (the state names them after the old events)', async () => {
    const pushEntries = () => {
      const store = openSqlite(join(dir.path, 'credentials.sqlite'));
      try {
        return (store.prepare("SELECT id FROM credentials WHERE kind LIKE 'push_%' ORDER BY id").all() as { id: string }[]).map((e) => e.id);
      } finally {
        store.close();
      }
    };
    await withApp(async (app) => {
      const context = { actor: { realmId: 1, userId: hamletId, role: 'member' as const, isBot: false } };
      const bus = app.get(CommandBus);
      await bus.execute(new LegacyPushTokenCommand(context, 'remove', 'apns', push.apns));
      expect(pushEntries()).toEqual(livePushEntries.filter((id) => !id.startsWith('push_token:')));
      await bus.execute(new RemoveClientDeviceCommand(context, 901));
      expect(pushEntries()).toEqual([]);
      expect(await app.get(PushRegistrationQueries).targets(1, hamletId)).toEqual({ devices: [], legacyTokens: [] });
    });
  });

  it('a second run has nothing to do; an export taken afterwards carries no secret', async () => {
    // (and the sibling step, docs/security.md "How erasure works": the boot sealed the message texts)
    expect(await run('migrate-credentials')).toEqual(['Credentials already migrated: the event log holds no API key, password hash, push secret or email confirmation key.', 'Message texts already sealed: the event log holds none in clear.']);
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
      expect(printed).toContain(`Moved the credentials of ${OLD_EVENTS} imported events into the credential store.`);
      expect(hits(fresh.path)).toEqual([]);
      await withApp(async (app) => {
        const auth = app.get(AuthenticationService);
        for (const [email, key] of keys) expect((await auth.authenticateApiKey(1, email, key)).user.email).toBe(email);
        expect((await auth.authenticatePassword(1, 'hamlet@acme.test', 'hamlet-legacy-password')).apiKey).toBe(keys.get('hamlet@acme.test'));
        expect((await app.get(PushRegistrationQueries).targets(1, hamletId)).devices.map((d) => d.pushKey)).toEqual([push.key]);
      });
    } finally {
      target = dir.path;
      fresh.remove();
    }
  });
});
