import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { BLOB_STORE, type BlobStorePort, ID_ALLOCATOR, type IdAllocatorPort, EVENT_STORE, type EventStorePort, exportBlobs, exportEventLog, importBlobs, importEventLog } from '@app/application';
import { existsSync } from 'node:fs';
import { APP_CONFIG, CONTENT_KEY_STORE, type ContentKeyStorePort, CREDENTIAL_STORE, type CredentialStorePort } from '@app/application';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { AppConfig } from '@app/config';
import { runContentMigration, runCredentialMigration } from '@app/infrastructure';
import {
  CreateBotCommand,
  CreateRealmCommand,
  CreateUserCommand,
  DeactivateUserCommand,
  ReactivateUserCommand,
  RealmQueries,
  RegenerateApiKeyCommand,
  RunMessageRetentionCommand,
  UserQueries,
} from '@app/application';
import { BOT_TYPE_VALUES, type BotType, DomainError, operatorActor, type Role, ROLES } from '@app/domain';
import { AuditHistory, DeletedContentPurge, type HistoryTarget, historyTable, ImportError } from '@app/application';
import { ProjectionRebuilder, type RebuildProgress } from '@app/projections';
import { SingleBar } from 'cli-progress';

/** The key id of the first sealed message text in an NDJSON export (undefined: none sealed). */
async function firstSealedKeyId(file: string): Promise<string | undefined> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      const match = /"\$sealed":"([^"]+)"/.exec(line);
      if (match) return match[1];
    }
    return undefined;
  } finally {
    lines.close();
  }
}

export type Output = {
  out(line: string): void;
  err(line: string): void;
  /** A terminal for progress bars (stderr); without one, progress is printed as lines. */
  progress?: NodeJS.WritableStream;
};

/** Picks the organization a command acts on: the named one, or the only one there is. */
async function resolveRealm(app: INestApplicationContext, stringId: string | undefined) {
  const realms = app.get(RealmQueries);
  if (stringId) return realms.mustFindByStringId(stringId);
  const all = await realms.list();
  if (all.length === 1) return all[0];
  throw new DomainError(all.length === 0 ? 'No organization exists yet; run create-realm first.' : 'Several organizations exist; pass --realm <string_id>.');
}

const BOT_TYPES = Object.keys(BOT_TYPE_VALUES) as BotType[];
const parseBotType = (value: string): BotType => {
  if (!(BOT_TYPES as string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${BOT_TYPES.join(', ')}`);
  return value as BotType;
};

const parseRole = (value: string): Role => {
  if (!(ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${ROLES.join(', ')}`);
  return value as Role;
};

/**
 * The operator's commands. `withApp` opens the application context for a command and closes it
 * afterwards, so each command is one short-lived process that shares the store with the server.
 */
export function buildProgram(withApp: <T>(fn: (app: INestApplicationContext) => Promise<T>) => Promise<T>, output: Output): Command {
  const program = new Command('team-chat')
    .description('Operate a team-chat server: organizations, users, projections.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) });

  program
    .command('create-realm')
    .description('Create an organization')
    .requiredOption('--string-id <id>', 'the organization\'s unique short name (subdomain), e.g. acme')
    .requiredOption('--name <name>', 'display name')
    .option('--description <text>', 'description', '')
    .action((opts: { stringId: string; name: string; description: string }) =>
      withApp(async (app) => {
        const { realmId } = await app.get(CommandBus).execute(new CreateRealmCommand(opts.stringId, opts.name, opts.description));
        output.out(`Created organization ${opts.stringId} (id ${realmId}).`);
      }),
    );

  program
    .command('create-user')
    .description('Create a user account and print its API key')
    .requiredOption('--email <email>', 'email address (the login)')
    .requiredOption('--full-name <name>', 'display name')
    .addOption(new Option('--role <role>', 'role').argParser(parseRole).default('member'))
    .option('--password <password>', 'password for logging in (omit for an API-key-only account)')
    .option('--realm <string_id>', 'organization (default: the only one)')
    .action((opts: { email: string; fullName: string; role: Role; password?: string; realm?: string }) =>
      withApp(async (app) => {
        const realm = await resolveRealm(app, opts.realm);
        const { userId, apiKey } = await app.get(CommandBus).execute(
          new CreateUserCommand({ actor: operatorActor(realm.id) }, {
            email: opts.email, fullName: opts.fullName, role: opts.role, password: opts.password ?? null,
          }),
        );
        output.out(`Created user ${opts.email} (id ${userId}, ${opts.role}) in ${realm.string_id}.`);
        output.out(`API key: ${apiKey}`);
      }),
    );

  program
    .command('list-users')
    .description('List the users of an organization')
    .option('--realm <string_id>', 'organization (default: the only one)')
    .option('--json', 'print JSON instead of a table')
    .action((opts: { realm?: string; json?: boolean }) =>
      withApp(async (app) => {
        const realm = await resolveRealm(app, opts.realm);
        const users = await app.get(UserQueries).list(realm.id);
        if (opts.json) {
          output.out(JSON.stringify(users.map(({ user_id, email, full_name, role_name, is_active, is_bot }) => ({ user_id, email, full_name, role: role_name, is_active, is_bot })), null, 2));
          return;
        }
        const rows = users.map((u) => [String(u.user_id), u.email, u.full_name, u.is_bot ? 'bot' : u.role_name, u.is_active ? 'active' : 'deactivated']);
        const header = ['ID', 'EMAIL', 'FULL NAME', 'ROLE', 'STATUS'];
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
        for (const row of [header, ...rows]) output.out(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
      }),
    );

  program
    .command('create-bot')
    .description('Create a bot owned by a user and print its API key')
    .requiredOption('--owner <email>', 'email address of the bot\'s owner (an active human account)')
    .requiredOption('--name <full name>', 'the bot\'s display name')
    .requiredOption('--short-name <name>', 'the bot\'s address becomes <short-name>-bot@<organization host>')
    .addOption(new Option('--type <type>', 'bot type').argParser(parseBotType).default('generic'))
    .option('--realm <string_id>', 'organization (default: the only one)')
    .action((opts: { owner: string; name: string; shortName: string; type: BotType; realm?: string }) =>
      withApp(async (app) => {
        const realm = await resolveRealm(app, opts.realm);
        const owner = await app.get(UserQueries).mustFindByEmail(realm.id, opts.owner);
        const { userId, apiKey, email } = await app.get(CommandBus).execute(
          new CreateBotCommand({ actor: operatorActor(realm.id) }, {
            fullName: opts.name, shortName: opts.shortName, botType: opts.type, ownerId: owner.user_id,
          }),
        );
        output.out(`Created bot ${email} (id ${userId}, ${opts.type}, owned by ${owner.email}) in ${realm.string_id}.`);
        output.out(`API key: ${apiKey}`);
      }),
    );

  program
    .command('deactivate-user')
    .description('Deactivate an account (a user\'s bots are deactivated with it)')
    .requiredOption('--email <email>', 'email address of the account')
    .option('--realm <string_id>', 'organization (default: the only one)')
    .action((opts: { email: string; realm?: string }) =>
      withApp(async (app) => {
        const realm = await resolveRealm(app, opts.realm);
        const users = app.get(UserQueries);
        const user = await users.mustFindByEmail(realm.id, opts.email);
        const { deactivatedUserIds } = await app.get(CommandBus).execute(
          new DeactivateUserCommand({ actor: operatorActor(realm.id) }, user.user_id, { target: 'any' }),
        );
        output.out(`Deactivated ${user.email} (id ${user.user_id}) in ${realm.string_id}.`);
        for (const id of deactivatedUserIds.filter((id) => id !== user.user_id)) {
          const bot = await users.byId(realm.id, id);
          output.out(`Also deactivated the bot ${bot?.email ?? `#${id}`} (id ${id}).`);
        }
      }),
    );

  program
    .command('reactivate-user')
    .description('Reactivate a deactivated account (its bots stay deactivated)')
    .requiredOption('--email <email>', 'email address of the account')
    .option('--realm <string_id>', 'organization (default: the only one)')
    .action((opts: { email: string; realm?: string }) =>
      withApp(async (app) => {
        const realm = await resolveRealm(app, opts.realm);
        const user = await app.get(UserQueries).mustFindByEmail(realm.id, opts.email);
        await app.get(CommandBus).execute(new ReactivateUserCommand({ actor: operatorActor(realm.id) }, user.user_id));
        output.out(`Reactivated ${user.email} (id ${user.user_id}) in ${realm.string_id}.`);
      }),
    );

  program
    .command('api-key')
    .description('Print an account\'s API key (with --regenerate, replace it first: the old key stops working)')
    .requiredOption('--email <email>', 'email address of the account')
    .option('--regenerate', 'generate a new key')
    .option('--realm <string_id>', 'organization (default: the only one)')
    .action((opts: { email: string; regenerate?: boolean; realm?: string }) =>
      withApp(async (app) => {
        const realm = await resolveRealm(app, opts.realm);
        const users = app.get(UserQueries);
        const user = await users.mustFindByEmail(realm.id, opts.email);
        if (opts.regenerate) {
          const { apiKey } = await app.get(CommandBus).execute(new RegenerateApiKeyCommand({ actor: operatorActor(realm.id) }, user.user_id));
          output.out(apiKey);
          return;
        }
        const credentials = await users.credentialsById(user.user_id);
        if (!credentials) throw new DomainError('No such user');
        // Only the key, so that scripts can capture it: KEY=$(team-chat api-key --email …).
        output.out(await users.apiKeyById(user.user_id));
      }),
    );

  program
    .command('export-events')
    .description('Write the whole event log to an NDJSON file (a backup; also how to move to another adapter set)')
    .requiredOption('--out <file>', 'file to write')
    .option('--blobs <dir>', 'directory for the uploads and emoji images the log references (default: <file>.blobs)')
    .option('--no-blobs', 'export the event log only')
    .action((opts: { out: string; blobs: string | boolean }) =>
      withApp(async (app) => {
        const events = app.get<EventStorePort>(EVENT_STORE);
        const count = await exportEventLog(events, opts.out, (n) => output.err(`exported ${n} events`));
        output.out(`Exported ${count} events to ${opts.out}.`);
        if (opts.blobs === false) return;
        const dir = typeof opts.blobs === 'string' ? opts.blobs : `${opts.out}.blobs`;
        const blobs = await exportBlobs(events, app.get<BlobStorePort>(BLOB_STORE), dir, (n) => output.err(`exported ${n} blobs`));
        output.out(`Exported ${blobs} blobs to ${dir}.`);
      }),
    );

  program
    .command('import-events')
    .description('Append an NDJSON export to an empty event store; the read models are rebuilt from it')
    .requiredOption('--in <file>', 'file to read')
    .option('--blobs <dir>', 'blob export to restore (default: <file>.blobs when it exists)')
    .action((opts: { in: string; blobs?: string }) =>
      withApp(async (app) => {
        // Blobs first: once the events are in, the read models point at them.
        const dir = opts.blobs ?? (existsSync(`${opts.in}.blobs`) ? `${opts.in}.blobs` : undefined);
        const events = app.get<EventStorePort>(EVENT_STORE);
        if ((await events.headPosition()) !== undefined && (await events.readAll({ maxCount: 1 })).length > 0) {
          throw new ImportError('The target event store is not empty; import only into an empty store.');
        }
        // Message texts are sealed with the keys of the installation that wrote the export: without its
        // content-key store they would read as erased (docs/security.md, "How erasure works").
        const keyId = await firstSealedKeyId(opts.in);
        if (keyId !== undefined && (await app.get<ContentKeyStorePort>(CONTENT_KEY_STORE).get(keyId)) === null) {
          throw new ImportError('This export\'s message texts are sealed with another installation\'s keys: copy its content-keys.sqlite (or content_keys collection) and key-encryption key here first (docs/security.md, "How erasure works").');
        }
        const blobs = dir ? await importBlobs(app.get<BlobStorePort>(BLOB_STORE), dir, (n) => output.err(`imported ${n} blobs`)) : 0;
        const count = await importEventLog(events, opts.in, (n) => output.err(`imported ${n} events`), app.get<IdAllocatorPort>(ID_ALLOCATOR));
        output.out(`Imported ${count} events from ${opts.in}.`);
        // An export taken before issue 35 carries API keys, password hashes and push secrets: into the credential store, out of the log.
        const moved = await runCredentialMigration({
          eventStore: events, store: app.get<CredentialStorePort>(CREDENTIAL_STORE), config: app.get<AppConfig>(APP_CONFIG), log: (line) => output.err(line), force: true,
          // EventStoreDB: the secrets are copied into the store; taking them out of the log is migrate-credentials' offline step.
          storeOnly: true,
        });
        if (moved.migrated > 0) output.out(`Moved the credentials of ${moved.migrated} imported events into the credential store.`);
        // An export taken before the sealing carries message texts in clear: sealed (embedded; on EventStoreDB, by migrate-credentials, offline).
        if (app.get<AppConfig>(APP_CONFIG).eventStoreDriver !== 'servers') {
          const sealed = await runContentMigration({ eventStore: events, config: app.get<AppConfig>(APP_CONFIG), log: (line) => output.err(line), force: true });
          if (sealed.sealed > 0) output.out(`Sealed the message texts of ${sealed.sealed} imported events.`);
        }
        if (dir) output.out(`Imported ${blobs} blobs from ${dir}.`);
      }),
    );

  program
    .command('purge-deleted')
    .description('Destroy the keys of messages deleted more than ARCHIVED_DATA_VACUUMING_DELAY_DAYS ago: their texts leave the event log and every copy of it (docs/security.md)')
    .option('--now <time>', 'purge as if it were this ISO time (default: now)', (value: string) => {
      const at = new Date(value);
      if (Number.isNaN(at.getTime())) throw new InvalidArgumentError('expected an ISO date and time');
      return at;
    })
    .action((opts: { now?: Date }) =>
      withApp(async (app) => {
        const destroyed = await app.get(DeletedContentPurge).run(opts.now);
        output.out(`Destroyed ${destroyed} keys of deleted messages and topics.`);
      }),
    );

  program
    .command('migrate-credentials')
    .description('Move API keys, password hashes and push secrets written before issue 35 out of the event log into the credential store, and old email confirmation keys to their digests (docs/security.md); resumable')
    .option('--force', 'scan the log again even if a migration already completed')
    .action((opts: { force?: boolean }) =>
      withApp(async (app) => {
        // Embedded: opening the application already migrated (the boot does it); this reports it,
        // or does it when the boot left it to another process. Servers: run with them stopped.
        const result = await runCredentialMigration({
          eventStore: app.get<EventStorePort>(EVENT_STORE),
          store: app.get<CredentialStorePort>(CREDENTIAL_STORE),
          config: app.get<AppConfig>(APP_CONFIG),
          log: (line) => output.err(line),
          force: opts.force,
          onBatch: ({ migrated }) => output.err(`moved the secrets of ${migrated} events`),
        });
        if (result.skipped) output.out('Credentials already migrated: the event log holds no API key, password hash, push secret or email confirmation key.');
        else output.out(`Migrated ${result.migrated} events: their API keys, password hashes and push secrets are in the credential store and no longer in the event log.`);
        // The sibling step: message texts written before the sealing (docs/security.md, "How erasure works").
        const content = await runContentMigration({ eventStore: app.get<EventStorePort>(EVENT_STORE), config: app.get<AppConfig>(APP_CONFIG), log: (line) => output.err(line), force: opts.force });
        if (content.skipped) output.out('Message texts already sealed: the event log holds none in clear.');
        else output.out(`Sealed the message texts of ${content.sealed} events; destroyed the keys of ${content.destroyed} messages and topics deleted longer ago than ARCHIVED_DATA_VACUUMING_DELAY_DAYS.`);
        if (result.adapter === 'servers' && (result.migrated > 0 || content.sealed > 0)) output.out('Now rebuild the read models before starting the servers: npm run cli -- rebuild');
      }),
    );

  program
    .command('retention')
    .description('Delete the messages older than their channel\'s or organization\'s message_retention_days now (what the scheduled job does; docs/messages.md)')
    .option('--batch-size <n>', 'messages deleted between two waits for the read models', (v) => {
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
      return n;
    })
    .option('--json', 'print JSON instead of lines')
    .action((opts: { batchSize?: number; json?: boolean }) =>
      withApp(async (app) => {
        const result = await app.get(CommandBus).execute(new RunMessageRetentionCommand({ batchSize: opts.batchSize }));
        if (opts.json) {
          output.out(JSON.stringify(result, null, 2));
          return;
        }
        for (const realm of result.realms) {
          output.out(`${realm.stringId}: deleted ${realm.deleted} messages`);
          for (const channel of realm.channels) output.out(`  #${channel.name} (channel ${channel.channelId}): ${channel.deleted}`);
          if (realm.directMessages > 0) output.out(`  direct messages: ${realm.directMessages}`);
        }
        output.out(`Deleted ${result.deleted} expired messages.`);
      }),
    );

  program
    .command('projections')
    .description('List every projection with its checkpoint, its lag behind the event log and the read-model copy holding it')
    .option('--json', 'print JSON instead of a table')
    .action((opts: { json?: boolean }) =>
      withApp(async (app) => {
        const rows = await app.get(ProjectionRebuilder).list();
        if (opts.json) {
          output.out(JSON.stringify(rows, null, 2));
          return;
        }
        printTable(output, ['PROJECTION', 'COLLECTION', 'CHECKPOINT', 'LAG', 'COPY'], rows.map((r) => [r.name, r.collection, r.checkpoint ?? '-', r.lag, r.copy]));
      }),
    );

  program
    .command('rebuild')
    .description('Rebuild one projection or all of them blue/green: replay the event log into a fresh copy, then switch to it')
    .argument('[projection]', 'a projection name (see `projections`), or all', 'all')
    .option('--server <url>', 'ask a running server to rebuild (POST /api/v1/svc/projections/rebuild) and follow its progress')
    .option('--email <email>', 'with --server: an administrator\'s email')
    .option('--api-key <key>', 'with --server: that administrator\'s API key')
    .action((projection: string, opts: { server?: string; email?: string; apiKey?: string }) => {
      const { onProgress, stop } = progressReporter(output);
      const report = (result: RebuildProgress) => {
        const seconds = (Date.parse(result.finishedAt!) - Date.parse(result.startedAt)) / 1000;
        output.out(`Rebuilt ${result.target} from ${result.total} events in ${seconds.toFixed(1)} s; now serving ${result.copy}.`);
      };
      if (opts.server) {
        if (!opts.email || !opts.apiKey) throw new DomainError('--server needs --email and --api-key (an administrator\'s).');
        return rebuildOnServer(opts.server, opts.email, opts.apiKey, projection, onProgress).then(
          (result) => (stop(), report(result)),
          (error) => (stop(), Promise.reject(error)),
        );
      }
      return withApp(async (app) => {
        try {
          const result = await app.get(ProjectionRebuilder).rebuild(projection, onProgress);
          stop();
          report(result);
        } catch (error) {
          stop();
          throw error;
        }
      });
    });

  program
    .command('history')
    .description('Audit history of a stream or an entity: who did what when, with old and new values')
    .option('--stream <name>', 'an event stream, e.g. message-42, channels-1')
    .option('--message <id>', 'a message id', parseId)
    .option('--channel <id>', 'a channel id', parseId)
    .option('--user <email>', 'a user (by email)')
    .option('--realm-settings', 'the organization\'s settings')
    .option('--realm <string_id>', 'organization (default: the only one)')
    .option('--json', 'print JSON instead of a table')
    .action((opts: { stream?: string; message?: number; channel?: number; user?: string; realmSettings?: boolean; realm?: string; json?: boolean }) =>
      withApp(async (app) => {
        const chosen = [opts.stream, opts.message, opts.channel, opts.user, opts.realmSettings].filter((v) => v !== undefined);
        if (chosen.length !== 1) throw new DomainError('Pass exactly one of --stream, --message, --channel, --user or --realm-settings.');
        let target: HistoryTarget;
        let realmId = 0;
        if (opts.stream !== undefined) target = { kind: 'stream', stream: opts.stream };
        else if (opts.message !== undefined) target = { kind: 'message', id: opts.message };
        else {
          const realm = await resolveRealm(app, opts.realm);
          realmId = realm.id;
          if (opts.channel !== undefined) target = { kind: 'channel', realmId: realm.id, id: opts.channel };
          else if (opts.user !== undefined) target = { kind: 'user', realmId: realm.id, id: (await app.get(UserQueries).mustFindByEmail(realm.id, opts.user)).user_id };
          else target = { kind: 'realm', realmId: realm.id };
        }
        // The operator reads every value but secrets and deleted messages' texts (docs/security.md).
        const entries = await app.get(AuditHistory).read(operatorActor(realmId), target);
        if (opts.json) output.out(JSON.stringify(entries, null, 2));
        else for (const line of historyTable(entries)) output.out(line);
      }),
    );

  return program;
}

/** A progress bar on a terminal (cli-progress), otherwise one line per phase. */
function progressReporter(output: Output): { onProgress: (p: RebuildProgress) => void; stop: () => void } {
  const bar = output.progress
    ? new SingleBar({
        stream: output.progress,
        format: 'rebuild {target} |{bar}| {percentage}% | {value}/{total} events | {eps} events/s | ETA {eta_formatted} | {phase}',
        etaBuffer: 50,
        hideCursor: true,
      })
    : undefined;
  let started = false;
  let lastPhase = '';
  return {
    onProgress: (p) => {
      if (bar) {
        if (!started) bar.start(Math.max(p.total, 1), p.done, { target: p.target, eps: p.eventsPerSecond, phase: p.phase });
        else bar.setTotal(Math.max(p.total, 1));
        bar.update(p.done, { eps: p.eventsPerSecond, phase: p.phase });
      } else if (p.phase !== lastPhase) {
        output.err(`rebuild ${p.target}: ${p.phase} (${p.done}/${p.total} events)`);
      }
      started = true;
      lastPhase = p.phase;
    },
    stop: () => bar?.stop(),
  };
}

/** Starts a rebuild on a running server and polls GET /svc/projections until it is done. */
async function rebuildOnServer(server: string, email: string, apiKey: string, projection: string, onProgress: (p: RebuildProgress) => void): Promise<RebuildProgress> {
  const base = server.replace(/\/+$/, '');
  const headers = { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` };
  const call = async (method: string, path: string, body?: URLSearchParams) => {
    const response = await fetch(`${base}/api/v1${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, body });
    const json = (await response.json().catch(() => ({}))) as { result?: string; msg?: string; rebuild?: RebuildProgress | null };
    if (json.result !== 'success') throw new DomainError(`${server}: ${json.msg ?? `HTTP ${response.status}`}`);
    return json;
  };
  const { rebuild: started } = await call('POST', '/svc/projections/rebuild', new URLSearchParams({ projection }));
  onProgress(started!);
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const { rebuild } = await call('GET', '/svc/projections');
    if (!rebuild || rebuild.startedAt !== started!.startedAt) continue;
    onProgress(rebuild);
    if (rebuild.phase === 'done') return rebuild;
    if (rebuild.phase === 'failed') throw new DomainError(`The rebuild failed: ${rebuild.error}`);
  }
}

const parseId = (value: string): number => {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new InvalidArgumentError('expected a positive integer');
  return Number(value);
};

function printTable(output: Output, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) output.out(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
}
