import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import type { RandomPort } from '../ports/random.port';
import { APP_CONFIG, CLOCK, ID_ALLOCATOR, RANDOM } from '../ports/tokens';
import type { AppConfig } from '@app/config';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { JoinDefaultChannelsCommand } from './join-default-channels.command';
import { CreateUserCommand } from './create-user.command';
import { API_KEY_LENGTH, hashPassword } from './passwords';
import { CredentialVault } from '../shared/credential-vault';

@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly commands: CommandBus,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context: { actor }, user }: CreateUserCommand) {
    const userId = user.userId ?? (await this.ids.next('user'));
    const apiKey = this.random.alphanumeric(API_KEY_LENGTH);
    const passwordHash = user.password === null ? null : await hashPassword(user.password, this.config.passwordHashCost);
    // The secrets go to the credential store; the event names their entries.
    const apiKeyId = this.random.uuid();
    const passwordId = passwordHash === null ? null : this.random.uuid();
    if (passwordHash !== null && passwordId !== null) await this.vault.storePasswordHash(actor.realmId, userId, passwordHash, passwordId);
    const create = () => this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'CreateUser',
      data: {
        realmId: actor.realmId,
        actorId: actor.userId,
        now: this.clock.now().toISOString(),
        userId,
        email: user.email,
        fullName: user.fullName,
        role: user.role,
        isBot: user.bot !== undefined,
        botType: user.bot?.type ?? null,
        botOwnerId: user.bot?.ownerId ?? null,
        apiKeyId,
        passwordId,
        timezone: user.timezone ?? '',
      },
    });
    const { position } = await this.vault
      .storedFor(apiKeyId, () => this.vault.storeApiKey(actor.realmId, userId, apiKey, apiKeyId), create)
      .catch(async (error: unknown) => {
        if (passwordId !== null) await this.vault.forget(passwordId);
        throw error;
      });
    await this.projections.waitFor(position);
    // process_new_human_user: a new person (not a bot) joins the default channels.
    if (user.bot === undefined && user.joinDefaultChannels !== false) await this.commands.execute(new JoinDefaultChannelsCommand({ actor }, userId));
    return { userId, apiKey };
  }
}
