import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommanderError } from 'commander';
import { AuthenticationService, RealmQueries, UserQueries } from '@app/application';
import { DomainError } from '@app/domain';
import { makeTempDir, testConfig } from '@app/testing';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

describe('CLI: bots, deactivation and API keys', () => {
  const dir = makeTempDir('team-chat-cli-identity-');
  let app: INestApplicationContext;
  let out: string[] = [];
  let err: string[] = [];

  /** Runs one command line against the shared application context; returns what it printed. */
  async function run(...args: string[]): Promise<string[]> {
    out = [];
    err = [];
    const program = buildProgram((fn) => fn(app), { out: (line) => out.push(line), err: (line) => err.push(line) });
    await program.parseAsync(args, { from: 'user' });
    return out;
  }
  const acmeId = async () => (await app.get(RealmQueries).mustFindByStringId('acme')).id;

  beforeAll(async () => {
    app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dir.path, { externalUrl: 'https://chat.test' }) }), { logger: false });
    await app.init();
    await run('create-realm', '--string-id', 'acme', '--name', 'Acme');
    await run('create-user', '--email', 'desdemona@acme.test', '--full-name', 'Desdemona', '--role', 'owner');
    await run('create-user', '--email', 'hamlet@acme.test', '--full-name', 'King Hamlet');
  });

  afterAll(async () => {
    await app.close();
    dir.remove();
  });

  let botKey = '';

  it('create-bot creates a bot at <short-name>-bot@<organization host> and prints its API key', async () => {
    const lines = await run('create-bot', '--owner', 'HAMLET@acme.test', '--name', 'Deploy bot', '--short-name', 'deploy');
    expect(lines[0]).toMatch(/^Created bot deploy-bot@acme\.chat\.test \(id \d+, generic, owned by hamlet@acme\.test\) in acme\.$/);
    expect(lines[1]).toMatch(/^API key: [A-Za-z0-9]{32}$/);
    botKey = lines[1].slice('API key: '.length);
    const { user } = await app.get(AuthenticationService).authenticateApiKey(await acmeId(), 'deploy-bot@acme.chat.test', botKey);
    expect(user).toMatchObject({ is_bot: true, bot_type: 1, full_name: 'Deploy bot' });
  });

  it('create-bot --type incoming_webhook makes a webhook bot', async () => {
    const lines = await run('create-bot', '--owner', 'hamlet@acme.test', '--name', 'Hook', '--short-name', 'hook', '--type', 'incoming_webhook');
    expect(lines[0]).toContain('hook-bot@acme.chat.test');
    expect((await app.get(UserQueries).byEmail(await acmeId(), 'hook-bot@acme.chat.test'))?.bot_type).toBe(2);
  });

  it('create-bot refuses a taken address, an unknown owner and an unknown type', async () => {
    await expect(run('create-bot', '--owner', 'hamlet@acme.test', '--name', 'Other', '--short-name', 'deploy')).rejects.toThrow('Username already in use');
    await expect(run('create-bot', '--owner', 'nobody@acme.test', '--name', 'Other', '--short-name', 'other')).rejects.toThrow(new DomainError('No such user'));
    await expect(run('create-bot', '--owner', 'hamlet@acme.test', '--name', 'X', '--short-name', 'x', '--type', 'embedded')).rejects.toBeInstanceOf(CommanderError);
    expect(err.join('\n')).toContain('expected one of generic, incoming_webhook');
  });

  it('api-key prints the key; --regenerate prints a new one and the old one stops working', async () => {
    expect(await run('api-key', '--email', 'deploy-bot@acme.chat.test')).toEqual([botKey]);
    const [fresh] = await run('api-key', '--email', 'deploy-bot@acme.chat.test', '--regenerate');
    expect(fresh).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(fresh).not.toBe(botKey);
    expect(await run('api-key', '--email', 'DEPLOY-BOT@acme.chat.test')).toEqual([fresh]);
    const auth = app.get(AuthenticationService);
    await expect(auth.authenticateApiKey(await acmeId(), 'deploy-bot@acme.chat.test', botKey)).rejects.toThrow('Invalid API key');
    await expect(auth.authenticateApiKey(await acmeId(), 'deploy-bot@acme.chat.test', fresh)).resolves.toBeDefined();
    botKey = fresh;
  });

  it('deactivate-user deactivates the user and their bots', async () => {
    const lines = await run('deactivate-user', '--email', 'hamlet@acme.test');
    expect(lines[0]).toMatch(/^Deactivated hamlet@acme\.test \(id \d+\) in acme\.$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^Also deactivated the bot deploy-bot@acme\.chat\.test \(id \d+\)\.$/),
      expect.stringMatching(/^Also deactivated the bot hook-bot@acme\.chat\.test \(id \d+\)\.$/),
    ]);
    const auth = app.get(AuthenticationService);
    await expect(auth.authenticateApiKey(await acmeId(), 'deploy-bot@acme.chat.test', botKey)).rejects.toThrow('Account is deactivated');
  });

  it('deactivate-user refuses an account that is already deactivated, and the only owner', async () => {
    await expect(run('deactivate-user', '--email', 'hamlet@acme.test')).rejects.toThrow('User is already deactivated');
    await expect(run('deactivate-user', '--email', 'desdemona@acme.test')).rejects.toThrow('Cannot deactivate the only organization owner');
  });

  it('reactivate-user reactivates the user; their bots stay deactivated', async () => {
    expect(await run('reactivate-user', '--email', 'hamlet@acme.test')).toEqual([expect.stringMatching(/^Reactivated hamlet@acme\.test \(id \d+\) in acme\.$/)]);
    const users = app.get(UserQueries);
    expect((await users.byEmail(await acmeId(), 'hamlet@acme.test'))?.is_active).toBe(true);
    expect((await users.byEmail(await acmeId(), 'deploy-bot@acme.chat.test'))?.is_active).toBe(false);
    await expect(run('reactivate-user', '--email', 'hamlet@acme.test')).rejects.toThrow('User is already active');
  });

  it('reactivate-user brings a bot back', async () => {
    await run('reactivate-user', '--email', 'deploy-bot@acme.chat.test');
    await expect(app.get(AuthenticationService).authenticateApiKey(await acmeId(), 'deploy-bot@acme.chat.test', botKey)).resolves.toBeDefined();
  });
});
