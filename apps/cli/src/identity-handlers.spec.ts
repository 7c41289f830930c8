import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import {
  ChangeBotOwnerCommand,
  ChangeRealmSettingsCommand,
  ChangeUserFullNameCommand,
  ChangeUserRoleCommand,
  CreateBotCommand,
  CreateRealmCommand,
  CreateUserCommand,
  DeactivateRealmCommand,
  DeactivateUserCommand,
  formatUser,
  RealmQueries,
  UserQueries,
} from '@app/application';
import { type Actor, MustBeOwnerError, operatorActor, type Role } from '@app/domain';
import { makeTempDir, testConfig } from '@app/testing';
import { CliModule } from './cli.module';

describe('identity command handlers and queries (embedded adapters)', () => {
  const dir = makeTempDir('team-chat-identity-');
  let app: INestApplicationContext;
  let bus: CommandBus;
  let realmId: number;
  const as: Record<string, Actor> = {};

  beforeAll(async () => {
    app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dir.path, { externalUrl: 'http://localhost:9991' }) }), { logger: false });
    await app.init();
    bus = app.get(CommandBus);
    realmId = (await bus.execute(new CreateRealmCommand('zulip', 'Zulip Dev', 'Old description'))).realmId;
    for (const [name, role] of [['desdemona', 'owner'], ['iago', 'administrator'], ['hamlet', 'member'], ['cordelia', 'member']] as [string, Role][]) {
      const { userId } = await bus.execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email: `${name}@zulip.test`, fullName: name, role, password: null }));
      as[name] = { realmId, userId, role, isBot: false };
    }
  });

  afterAll(async () => {
    await app.close();
    dir.remove();
  });

  it('renames and re-describes the organization; the read model answers with the new values', async () => {
    const { changed } = await bus.execute(new ChangeRealmSettingsCommand({ actor: as.desdemona }, { name: 'Zulip', description: 'New' }));
    expect(changed).toEqual([{ property: 'name', value: 'Zulip' }, { property: 'description', value: 'New' }]);
    expect(await app.get(RealmQueries).byId(realmId)).toMatchObject({ name: 'Zulip', description: 'New', deactivated: false });
    expect((await bus.execute(new ChangeRealmSettingsCommand({ actor: as.desdemona }, { name: 'Zulip' }))).changed).toEqual([]);
  });

  it('creates bots for the acting user, at <short_name>-bot@<host> (localhost when the organization host has a port)', async () => {
    const { userId, email } = await bus.execute(new CreateBotCommand({ actor: as.hamlet }, { fullName: 'Hamlet bot', shortName: 'hamlet' }));
    expect(email).toBe('hamlet-bot@localhost');
    const users = app.get(UserQueries);
    expect((await users.activeBotsOwnedBy(realmId, as.hamlet.userId!)).map((b) => b.user_id)).toEqual([userId]);
    const withBots = await users.listWithBots(realmId);
    expect(withBots.find((u) => u.user.user_id === as.hamlet.userId)?.bots.map((b) => b.email)).toEqual(['hamlet-bot@localhost']);
    expect(withBots.find((u) => u.user.user_id === as.iago.userId)?.bots).toEqual([]);
    // Another user's bot for hamlet is not allowed.
    await expect(bus.execute(new CreateBotCommand({ actor: as.cordelia }, { fullName: 'Not mine', shortName: 'notmine', ownerId: as.hamlet.userId! }))).rejects.toThrow('Insufficient permission');
  });

  it('changes a bot\'s owner', async () => {
    const [bot] = await app.get(UserQueries).activeBotsOwnedBy(realmId, as.hamlet.userId!);
    await bus.execute(new ChangeBotOwnerCommand({ actor: as.hamlet }, bot.user_id, as.cordelia.userId!));
    expect((await app.get(UserQueries).byId(realmId, bot.user_id))?.bot_owner_id).toBe(as.cordelia.userId);
    await bus.execute(new ChangeBotOwnerCommand({ actor: as.iago }, bot.user_id, as.hamlet.userId!));
  });

  it('applies role changes with the owner rule, and lists users by role', async () => {
    await expect(bus.execute(new ChangeUserRoleCommand({ actor: as.iago }, as.hamlet.userId!, 'owner'))).rejects.toBeInstanceOf(MustBeOwnerError);
    await bus.execute(new ChangeUserRoleCommand({ actor: as.desdemona }, as.hamlet.userId!, 'owner'));
    const owners = await app.get(UserQueries).listActiveByRole(realmId, 'owner', { humansOnly: true });
    expect(owners.map((u) => u.email)).toEqual(['desdemona@zulip.test', 'hamlet@zulip.test']);
    await bus.execute(new ChangeUserRoleCommand({ actor: as.desdemona }, as.hamlet.userId!, 'member'));
  });

  it('renames users and formats them for the API', async () => {
    await bus.execute(new ChangeUserFullNameCommand({ actor: as.iago }, as.cordelia.userId!, 'Cordelia Lear'));
    const cordelia = await app.get(UserQueries).mustFindById(realmId, as.cordelia.userId!);
    // Addresses visible to everyone (the default email_address_visibility): delivery_email for all.
    expect(formatUser(cordelia, as.hamlet)).toMatchObject({ full_name: 'Cordelia Lear', delivery_email: 'cordelia@zulip.test', role: 400 });
    expect(formatUser(cordelia, as.iago)).toMatchObject({ delivery_email: 'cordelia@zulip.test' });
    expect(formatUser(cordelia, as.iago)).not.toHaveProperty('realm_id');
  });

  it('deactivates a user with their bots and returns every account deactivated', async () => {
    const [bot] = await app.get(UserQueries).activeBotsOwnedBy(realmId, as.hamlet.userId!);
    const { deactivatedUserIds } = await bus.execute(new DeactivateUserCommand({ actor: as.iago }, as.hamlet.userId!, { target: 'user' }));
    expect(deactivatedUserIds).toEqual([bot.user_id, as.hamlet.userId]);
    expect(await app.get(UserQueries).countActive(realmId)).toBe(3);
  });

  it('deactivates the organization (a second time is a no-op)', async () => {
    await bus.execute(new DeactivateRealmCommand({ actor: as.desdemona }));
    await bus.execute(new DeactivateRealmCommand({ actor: as.desdemona }));
    expect(await app.get(RealmQueries).byId(realmId)).toMatchObject({ deactivated: true });
    expect(await app.get(RealmQueries).listActive()).toEqual([]);
  });
});
