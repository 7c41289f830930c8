import { DomainError } from '../shared/domain-error';

/** zerver/views/muted_users.py mute_user. */
export class CannotMuteSelfError extends DomainError {
  constructor() {
    super('Cannot mute self');
  }
}

/** mute_user: the mute already exists. */
export class UserAlreadyMutedError extends DomainError {
  constructor() {
    super('User already muted');
  }
}

/** unmute_user: there is no mute to remove. */
export class UserNotMutedError extends DomainError {
  constructor() {
    super('User is not muted');
  }
}
