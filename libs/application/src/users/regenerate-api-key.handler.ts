import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NoSuchUserError } from '@app/domain';
import type { RandomPort } from '../ports/random.port';
import { RANDOM } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { usersHandler } from './users.decider-handler';
import { API_KEY_LENGTH } from './passwords';
import { RegenerateApiKeyCommand } from './regenerate-api-key.command';
import { CredentialVault } from '../shared/credential-vault';

@CommandHandler(RegenerateApiKeyCommand)
export class RegenerateApiKeyHandler implements ICommandHandler<RegenerateApiKeyCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(RANDOM) private readonly random: RandomPort,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context: { actor }, userId }: RegenerateApiKeyCommand) {
    const target = userId ?? actor.userId;
    if (target === null) throw new NoSuchUserError();
    const apiKey = this.random.alphanumeric(API_KEY_LENGTH);
    // The key goes to the credential store; the event says only that it changed (and names the entry).
    const apiKeyId = this.random.uuid();
    await this.vault.storedFor(
      apiKeyId,
      () => this.vault.storeApiKey(actor.realmId, target, apiKey, apiKeyId),
      () =>
        usersHandler(this.commands, actor, ({ realmId, now }) => ({
          type: 'RegenerateApiKey',
          data: { realmId, actorId: actor.userId, now, userId: target, apiKeyId },
        })),
    );
    await this.vault.pruneBefore(target, 'api_key', apiKeyId);
    return { apiKey };
  }
}
