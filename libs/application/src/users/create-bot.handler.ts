import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { BotOwnerRequiredError, botEmailDomain, type UserCreated, usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import type { RandomPort } from '../ports/random.port';
import { APP_CONFIG, CLOCK, ID_ALLOCATOR, RANDOM } from '../ports/tokens';
import { RealmQueries } from '../realms/realm.queries';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { CreateBotCommand } from './create-bot.command';
import { API_KEY_LENGTH } from './passwords';
import { UserQueries } from './user.queries';
import { CredentialVault } from '../shared/credential-vault';

@CommandHandler(CreateBotCommand)
export class CreateBotHandler implements ICommandHandler<CreateBotCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly realms: RealmQueries,
    private readonly users: UserQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context: { actor }, bot }: CreateBotCommand) {
    const ownerId = bot.system ? null : (bot.ownerId ?? actor.userId);
    if (ownerId === null && !bot.system) throw new BotOwnerRequiredError();
    // The bot domain is a fact outside the users stream: the organization's host.
    const realm = await this.realms.mustFindById(actor.realmId);
    const userId = await this.ids.next('user');
    const apiKey = this.random.alphanumeric(API_KEY_LENGTH);
    const apiKeyId = this.random.uuid();
    // A bot may not take an active human's name: their current names, from the read models.
    const activeHumanNames = await this.users.activeHumanNames(actor.realmId);
    const create = () => this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'CreateBot',
      data: {
        realmId: actor.realmId,
        actorId: actor.userId,
        now: this.clock.now().toISOString(),
        userId,
        shortName: bot.shortName,
        fullName: bot.fullName,
        botType: bot.botType ?? 'generic',
        ownerId,
        botDomain: botEmailDomain(realm.string_id, this.config.externalUrl),
        apiKeyId,
        activeHumanNames,
      },
    });
    // The key goes to the credential store; the event names its entry.
    const { newEvents, position } = await this.vault.storedFor(apiKeyId, () => this.vault.storeApiKey(actor.realmId, userId, apiKey, apiKeyId), create);
    await this.projections.waitFor(position);
    return { userId, apiKey, email: (newEvents[0] as UserCreated).data.email };
  }
}
