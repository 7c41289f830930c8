import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, RANDOM } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { ChangeUserPasswordCommand } from './change-user-password.command';
import { hashPassword } from './passwords';
import { CredentialVault } from '../shared/credential-vault';
import type { RandomPort } from '../ports/random.port';

@CommandHandler(ChangeUserPasswordCommand)
export class ChangeUserPasswordHandler implements ICommandHandler<ChangeUserPasswordCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RANDOM) private readonly random: RandomPort,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context: { actor }, userId, password }: ChangeUserPasswordCommand): Promise<void> {
    const passwordHash = await hashPassword(password, this.config.passwordHashCost);
    // The hash goes to the credential store; the event says only that the password changed.
    const passwordId = this.random.uuid();
    await this.vault.storedFor(
      passwordId,
      () => this.vault.storePasswordHash(actor.realmId, userId, passwordHash, passwordId),
      () =>
        usersHandler(this.commands, actor, ({ realmId, now }) => ({
          type: 'ChangePassword',
          data: { realmId, actorId: actor.userId, now, userId, passwordId },
        })),
    );
    await this.vault.pruneBefore(userId, 'password', passwordId);
  }
}
