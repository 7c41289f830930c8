import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { EVENT_STORE, type EventStorePort, exportEventLog, importEventLog } from '@app/application';
import {
  CreateBotCommand,
  CreateRealmCommand,
  CreateUserCommand,
  DeactivateUserCommand,
  ReactivateUserCommand,
  RealmQueries,
  RegenerateApiKeyCommand,
  UserQueries,
} from '@app/application';
import { BOT_TYPE_VALUES, type BotType, DomainError, operatorActor, type Role, ROLES } from '@app/domain';

export type Output = { out(line: string): void; err(line: string): void };

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
        output.out(credentials.api_key);
      }),
    );

  program
    .command('export-events')
    .description('Write the whole event log to an NDJSON file (a backup; also how to move to another adapter set)')
    .requiredOption('--out <file>', 'file to write')
    .action((opts: { out: string }) =>
      withApp(async (app) => {
        const count = await exportEventLog(app.get<EventStorePort>(EVENT_STORE), opts.out, (n) => output.err(`exported ${n} events`));
        output.out(`Exported ${count} events to ${opts.out}.`);
      }),
    );

  program
    .command('import-events')
    .description('Append an NDJSON export to an empty event store; the read models are rebuilt from it')
    .requiredOption('--in <file>', 'file to read')
    .action((opts: { in: string }) =>
      withApp(async (app) => {
        const count = await importEventLog(app.get<EventStorePort>(EVENT_STORE), opts.in, (n) => output.err(`imported ${n} events`));
        output.out(`Imported ${count} events from ${opts.in}.`);
      }),
    );

  return program;
}
