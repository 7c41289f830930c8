import { DomainError } from '../shared/domain-error';

/** zerver/lib/bot_storage.py get_bot_storage / remove_bot_storage (StateError, answered as a plain 400). */
export class BotStorageKeyDoesNotExistError extends DomainError {
  constructor() {
    super('Key does not exist.');
  }
}

/** set_bot_storage: the bot's entries would exceed settings.USER_STATE_SIZE_LIMIT. */
export class BotStorageLimitExceededError extends DomainError {
  constructor(excess: number, limit: number) {
    super(`Request exceeds storage limit by ${excess} characters. The limit is ${limit} characters.`);
  }
}
