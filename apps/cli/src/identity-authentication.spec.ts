import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import {
  APP_CONFIG,
  READ_STORE,
  AuthenticationService,
  CredentialVault,
  CreateBotCommand,
  CreateRealmCommand,
  CreateUserCommand,
  DeactivateRealmCommand,
  DeactivateUserCommand,
  ReactivateRealmCommand,
  RealmQueries,
  RegenerateApiKeyCommand,
  UserQueries,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { DomainError, operatorActor } from '@app/domain';
import { makeTempDir, testConfig } from '@app/testing';
import { CliModule } from './cli.module';

/** The failure of a promise as { msg, code, status }, Zulip's error body in short. */
async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { msg: error.message, code: error.code, status: error.httpStatus };
  }
  throw new Error('expected a DomainError');
}

describe('AuthenticationService (embedded adapters, through the CLI module)', () => {
  const dir = makeTempDir('team-chat-auth-');
  let app: INestApplicationContext;
  let auth: AuthenticationService;
  let acme: number;
  let lear: number;
  const keys: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dir.path, { externalUrl: 'http://chat.test' }) }), { logger: false });
    await app.init();
    auth = app.get(AuthenticationService);
    const bus = app.get(CommandBus);
    acme = (await bus.execute(new CreateRealmCommand('acme', 'Acme'))).realmId;
    lear = (await bus.execute(new CreateRealmCommand('lear', 'Lear'))).realmId;
    const operator = { actor: operatorActor(acme) };
    for (const [name, role, password] of [
      ['desdemona', 'owner', null],
      ['hamlet', 'member', 'hamlet-password'],
      ['cordelia', 'member', null],
    ] as const) {
      const created = await bus.execute(new CreateUserCommand(operator, { email: `${name}@acme.test`, fullName: name, role, password }));
      keys[name] = created.apiKey;
      ids[name] = created.userId;
    }
    const lears = await bus.execute(new CreateUserCommand({ actor: operatorActor(lear) }, { email: 'king@lear.test', fullName: 'King Lear', role: 'owner', password: 'lear-password' }));
    keys.king = lears.apiKey;
    const helper = await bus.execute(new CreateBotCommand(operator, { fullName: 'Helper', shortName: 'helper', ownerId: ids.hamlet }));
    const hook = await bus.execute(new CreateBotCommand(operator, { fullName: 'Hook', shortName: 'hook', botType: 'incoming_webhook', ownerId: ids.hamlet }));
    keys.helper = helper.apiKey;
    keys.hook = hook.apiKey;
    await bus.execute(new DeactivateUserCommand(operator, ids.cordelia));
  });

  afterAll(async () => {
    await app.close();
    dir.remove();
  });

  describe('authenticateApiKey (validate_api_key)', () => {
    it('accepts the right key and returns the account and the actor', async () => {
      const { user, actor } = await auth.authenticateApiKey(acme, 'hamlet@acme.test', keys.hamlet);
      expect(user).toMatchObject({ user_id: ids.hamlet, email: 'hamlet@acme.test', is_active: true });
      expect(actor).toEqual({ realmId: acme, userId: ids.hamlet, role: 'member', isBot: false });
    });

    it('compares emails case-insensitively and forgives surrounding whitespace', async () => {
      await expect(auth.authenticateApiKey(acme, 'HAMLET@Acme.Test', keys.hamlet)).resolves.toMatchObject({ user: { user_id: ids.hamlet } });
      await expect(auth.authenticateApiKey(acme, ' hamlet@acme.test ', ` ${keys.hamlet}\n`)).resolves.toBeDefined();
    });

    it('authenticates bots the same way', async () =>
      expect((await auth.authenticateApiKey(acme, 'helper-bot@acme.chat.test', keys.helper)).actor).toMatchObject({ isBot: true }));

    it('a wrong key: "Invalid API key" (INVALID_API_KEY, 401)', async () =>
      expect(await failure(auth.authenticateApiKey(acme, 'hamlet@acme.test', 'Z'.repeat(32)))).toEqual({
        msg: 'Invalid API key', code: 'INVALID_API_KEY', status: 401,
      }));

    it('another account\'s key is a wrong key', async () =>
      expect((await failure(auth.authenticateApiKey(acme, 'hamlet@acme.test', keys.desdemona))).msg).toBe('Invalid API key'));

    it('a key of the wrong length or alphabet: "Malformed API key" (INVALID_API_KEY, 401)', async () => {
      for (const key of [keys.hamlet.slice(0, 31), keys.hamlet + 'x', `${keys.hamlet.slice(0, 31)}-`, '']) {
        expect(await failure(auth.authenticateApiKey(acme, 'hamlet@acme.test', key))).toEqual({ msg: 'Malformed API key', code: 'INVALID_API_KEY', status: 401 });
      }
    });

    it('an unknown email, or an account of another organization: "Invalid API key"', async () => {
      expect((await failure(auth.authenticateApiKey(acme, 'nobody@acme.test', keys.hamlet))).msg).toBe('Invalid API key');
      expect((await failure(auth.authenticateApiKey(acme, 'king@lear.test', keys.king))).msg).toBe('Invalid API key');
    });

    it('a deactivated account: "Account is deactivated" (USER_DEACTIVATED, 401)', async () =>
      expect(await failure(auth.authenticateApiKey(acme, 'cordelia@acme.test', keys.cordelia))).toEqual({
        msg: 'Account is deactivated', code: 'USER_DEACTIVATED', status: 401,
      }));

    it('incoming webhook bots only where webhooks are accepted', async () => {
      expect(await failure(auth.authenticateApiKey(acme, 'hook-bot@acme.chat.test', keys.hook))).toEqual({
        msg: 'This API is not available to incoming webhook bots.', code: 'BAD_REQUEST', status: 400,
      });
      await expect(auth.authenticateApiKey(acme, 'hook-bot@acme.chat.test', keys.hook, { allowWebhookAccess: true })).resolves.toBeDefined();
    });

    it('over HTTP Basic every failure is 401 UNAUTHORIZED with the same message', async () =>
      expect(await failure(auth.authenticateHttpBasic(acme, 'cordelia@acme.test', keys.cordelia))).toEqual({
        msg: 'Account is deactivated', code: 'UNAUTHORIZED', status: 401,
      }));

    it('a regenerated key replaces the old one at once', async () => {
      const bus = app.get(CommandBus);
      const { apiKey } = await bus.execute(new RegenerateApiKeyCommand({ actor: { realmId: acme, userId: ids.desdemona, role: 'owner', isBot: false } }));
      expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
      expect((await failure(auth.authenticateApiKey(acme, 'desdemona@acme.test', keys.desdemona))).msg).toBe('Invalid API key');
      await expect(auth.authenticateApiKey(acme, 'desdemona@acme.test', apiKey)).resolves.toBeDefined();
      keys.desdemona = apiKey;
    });
  });

  describe('authenticatePassword (fetch_api_key)', () => {
    it('returns the API key for the right password, whatever the email\'s case', async () => {
      const fetched = await auth.authenticatePassword(acme, 'Hamlet@ACME.test', 'hamlet-password');
      expect(fetched).toMatchObject({ apiKey: keys.hamlet, user: { user_id: ids.hamlet, delivery_email: 'hamlet@acme.test' } });
    });

    it('a wrong password, an unknown email or an account without a password: "Your username or password is incorrect"', async () => {
      const expected = { msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED', status: 401 };
      expect(await failure(auth.authenticatePassword(acme, 'hamlet@acme.test', 'wrong'))).toEqual(expected);
      expect(await failure(auth.authenticatePassword(acme, 'nobody@acme.test', 'hamlet-password'))).toEqual(expected);
      expect(await failure(auth.authenticatePassword(acme, 'desdemona@acme.test', 'anything'))).toEqual(expected);
      expect(await failure(auth.authenticatePassword(acme, 'hamlet@acme.test', ''))).toEqual(expected);
    });

    it('a malformed email: "Enter a valid email address."', async () =>
      expect(await failure(auth.authenticatePassword(acme, 'hamlet', 'x'))).toEqual({ msg: 'Enter a valid email address.', code: 'BAD_REQUEST', status: 400 }));

    it('an account of another organization: "Invalid subdomain" (NONEXISTENT_SUBDOMAIN, 404)', async () =>
      expect(await failure(auth.authenticatePassword(acme, 'king@lear.test', 'lear-password'))).toEqual({
        msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN', status: 404,
      }));

    it('a deactivated account, before the password is checked: "Account is deactivated"', async () =>
      expect((await failure(auth.authenticatePassword(acme, 'cordelia@acme.test', 'whatever'))).code).toBe('USER_DEACTIVATED'));
  });

  describe('authenticateDevelopment (dev_fetch_api_key)', () => {
    const under = (env: AppConfig['env']) => new AuthenticationService(app.get(UserQueries), app.get(RealmQueries), { ...app.get<AppConfig>(APP_CONFIG), env }, app.get(READ_STORE), app.get(CredentialVault));

    it('returns any active account\'s key by email on a development server', async () =>
      expect(await under('development').authenticateDevelopment(acme, 'HAMLET@acme.test')).toMatchObject({ apiKey: keys.hamlet }));

    it('fails like fetch_api_key otherwise', async () => {
      expect((await failure(under('development').authenticateDevelopment(acme, 'nobody@acme.test'))).code).toBe('AUTHENTICATION_FAILED');
      expect((await failure(under('development').authenticateDevelopment(acme, 'cordelia@acme.test'))).code).toBe('USER_DEACTIVATED');
    });

    it('is not available in production: "Endpoint not available in production."', async () =>
      expect((await failure(under('production').authenticateDevelopment(acme, 'hamlet@acme.test'))).msg).toBe('Endpoint not available in production.'));

    it('is not enabled under NODE_ENV=test either: "DevAuthBackend not enabled."', async () => {
      expect(app.get<AppConfig>(APP_CONFIG).env).toBe('test');
      expect(await failure(auth.authenticateDevelopment(acme, 'hamlet@acme.test'))).toEqual({ msg: 'DevAuthBackend not enabled.', code: 'BAD_REQUEST', status: 400 });
    });
  });

  describe('a deactivated organization', () => {
    beforeAll(() => app.get(CommandBus).execute(new DeactivateRealmCommand({ actor: operatorActor(acme) })));
    afterAll(() => app.get(CommandBus).execute(new ReactivateRealmCommand({ actor: operatorActor(acme) })));

    it('refuses every key: "This organization has been deactivated" (REALM_DEACTIVATED, 401)', async () => {
      const expected = { msg: 'This organization has been deactivated', code: 'REALM_DEACTIVATED', status: 401 };
      expect(await failure(auth.authenticateApiKey(acme, 'hamlet@acme.test', keys.hamlet))).toEqual(expected);
      // The organization is checked before the account, as in Zulip.
      expect(await failure(auth.authenticateApiKey(acme, 'cordelia@acme.test', keys.cordelia))).toEqual(expected);
    });

    it('refuses passwords too, and leaves other organizations alone', async () => {
      expect((await failure(auth.authenticatePassword(acme, 'hamlet@acme.test', 'hamlet-password'))).code).toBe('REALM_DEACTIVATED');
      await expect(auth.authenticatePassword(lear, 'king@lear.test', 'lear-password')).resolves.toMatchObject({ apiKey: keys.king });
    });

    it('shows deactivated in the read model', async () => expect(await app.get(RealmQueries).byId(acme)).toMatchObject({ deactivated: true }));
  });

  it('works again after reactivation', async () => expect(await auth.authenticateApiKey(acme, 'hamlet@acme.test', keys.hamlet)).toBeDefined());
});
