import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import {
  APP_CONFIG,
  CreateRealmCommand,
  CreateUserCommand,
  LOGGER,
  ProjectionWaiter,
  RealmQueries,
  UserQueries,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { operatorActor, RealmStringIdTakenError, type Role } from '@app/domain';
import { AddSubscriptionsCommand, actorFromUser } from '@app/application';

export const DEV_REALM = { stringId: 'zulip', name: 'Zulip Dev' };
export const DEV_PASSWORD = 'dev-password';

/** The accounts of the development organization, after Zulip's development server's personas. */
export const DEV_ACCOUNTS: { email: string; fullName: string; role: Role }[] = [
  { email: 'desdemona@zulip.com', fullName: 'Desdemona', role: 'owner' },
  { email: 'iago@zulip.com', fullName: 'Iago', role: 'administrator' },
  { email: 'shiva@zulip.com', fullName: 'Shiva', role: 'moderator' },
  { email: 'hamlet@zulip.com', fullName: 'King Hamlet', role: 'member' },
  { email: 'cordelia@zulip.com', fullName: 'Cordelia, Lear\'s daughter', role: 'member' },
  { email: 'polonius@zulip.com', fullName: 'Polonius', role: 'guest' },
];
export const DEV_BOT = { email: 'default-bot@zulip.com', fullName: 'Default bot', ownerEmail: 'iago@zulip.com' };

/**
 * On the first start of a development server with an empty store, creates an organization with
 * one account per role and a bot, and prints how to use them.
 */
@Injectable()
export class DevelopmentOrganization {
  constructor(
    private readonly commands: CommandBus,
    private readonly realms: RealmQueries,
    private readonly users: UserQueries,
    private readonly projections: ProjectionWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async ensure(): Promise<void> {
    if (this.config.env !== 'development' || !this.config.devBootstrap) return;
    // The split layout: the worker's projectors may not be running yet (an API process started
    // first on an empty store); its waits last however long that takes, before it listens.
    await this.projections.patiently(() => this.create());
  }

  private async create(): Promise<void> {
    if ((await this.realms.list()).length > 0) return;
    if (!this.config.runProjectors) this.logger.info('creating the development organization; its writes wait for the projectors (apps/worker), however long they take to start');
    let realmId: number;
    try {
      ({ realmId } = await this.commands.execute(new CreateRealmCommand(DEV_REALM.stringId, DEV_REALM.name)));
    } catch (error) {
      // Several API processes starting together on one store (the split layout): one creates the
      // organization, the others find it taken and leave it to that one.
      if (error instanceof RealmStringIdTakenError) return;
      throw error;
    }
    const context = { actor: operatorActor(realmId) };
    const created: { email: string; role: string; apiKey: string }[] = [];
    for (const account of DEV_ACCOUNTS) {
      const { apiKey } = await this.commands.execute(new CreateUserCommand(context, { ...account, password: DEV_PASSWORD }));
      created.push({ email: account.email, role: account.role, apiKey });
    }
    const owner = await this.users.byEmail(realmId, DEV_BOT.ownerEmail);
    const bot = await this.commands.execute(
      new CreateUserCommand(context, {
        email: DEV_BOT.email,
        fullName: DEV_BOT.fullName,
        role: 'member',
        password: null,
        bot: { type: 'generic', ownerId: owner!.user_id },
      }),
    );
    created.push({ email: DEV_BOT.email, role: 'bot', apiKey: bot.apiKey });
    this.logger.info({ realm: DEV_REALM.stringId, accounts: created.map(({ email, role }) => ({ email, role })) }, 'development organization created');
    const lines = [
      '',
      `Development organization "${DEV_REALM.name}" created at ${this.config.externalUrl}`,
      `Every human account's password is "${DEV_PASSWORD}". API keys:`,
      ...created.map((a) => `  ${a.email.padEnd(26)} ${a.role.padEnd(14)} ${a.apiKey}`),
      'Try:',
      `  curl -u ${created[3].email}:${created[3].apiKey} ${this.config.externalUrl}/api/v1/users/me`,
      `Or fetch a key: curl -X POST ${this.config.externalUrl}/api/v1/dev_fetch_api_key -d username=iago@zulip.com`,
      `API reference ${this.config.externalUrl}/api/docs · operator console ${this.config.externalUrl}/svc/console (sign in as iago) · metrics ${this.config.externalUrl}/metrics`,
      '',
    ];
    // Printed, not logged: this is the operator's first screen.
    process.stdout.write(lines.join('\n') + '\n');
    await this.createDevelopmentChannels(realmId);
  }

  /**
   * A few channels, created by Iago: a public one for everyone, a public one for some, a private
   * one. `general` is a default channel, as Zulip's development data has some: accounts created
   * later join it.
   */
  private async createDevelopmentChannels(realmId: number): Promise<void> {
    const idOf = async (email: string) => (await this.users.byEmail(realmId, email))!.user_id;
    const iago = (await this.users.byEmail(realmId, 'iago@zulip.com'))!;
    const context = { actor: actorFromUser(iago) };
    const everyone = await Promise.all([...DEV_ACCOUNTS.map((a) => a.email), DEV_BOT.email].map(idOf));
    const channels: { name: string; description: string; inviteOnly: boolean; members: string[] | 'everyone' }[] = [
      { name: 'general', description: 'For everything', inviteOnly: false, members: 'everyone' },
      { name: 'design', description: 'Pixels, flows and copy', inviteOnly: false, members: ['iago@zulip.com', 'hamlet@zulip.com', 'cordelia@zulip.com', 'desdemona@zulip.com'] },
      { name: 'core team', description: 'The people who run the place', inviteOnly: true, members: ['desdemona@zulip.com', 'iago@zulip.com', 'shiva@zulip.com'] },
    ];
    for (const channel of channels) {
      const principals = channel.members === 'everyone' ? everyone : await Promise.all(channel.members.map(idOf));
      await this.commands.execute(
        new AddSubscriptionsCommand(context, {
          subscriptions: [{ name: channel.name, description: channel.description }],
          principals,
          inviteOnly: channel.inviteOnly,
          isDefaultStream: channel.name === 'general',
        }),
      );
    }
  }
}
