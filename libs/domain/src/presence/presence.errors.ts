import { DomainError } from '../shared/domain-error';

/** update_active_status_backend. */
export class InvalidPresenceStatusError extends DomainError {
  constructor(status: string) {
    super(`Invalid status: ${status}`);
  }
}

/** get_presence_backend. */
export class BotPresenceNotSupportedError extends DomainError {
  constructor() {
    super('Presence is not supported for bot users.');
  }
}

export class NoPresenceDataError extends DomainError {
  constructor(userIdOrEmail: string) {
    super(`No presence data for ${userIdOrEmail}`);
  }
}
