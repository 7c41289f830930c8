import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { CreateRealmCommand, CreateUserCommand, RealmQueries, UserQueries } from '@app/application';
import { DomainError, operatorActor, type Role, ROLES } from '@app/domain';

export type Output = { out(line: string): void; err(line: string): void };

/** Picks the organization a command acts on: the named one, or the only one there is. */
async function resolveRealm(app: INestApplicationContext, stringId: string | undefined) {
  const realms = app.get(RealmQueries);
  if (stringId) return realms.mustFindByStringId(stringId);
  const all = await realms.list();
  if (all.length === 1) return all[0];
  throw new DomainError(all.length === 0 ? 'No organization exists yet; run create-realm first.' : 'Several organizations exist; pass --realm <string_id>.');
}

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

  return program;
}
