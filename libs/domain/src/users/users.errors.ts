import { DomainError, NotFoundError } from '../shared/domain-error';

export class EmailAlreadyInUseError extends DomainError {
  constructor(email: string) {
    super(`Email '${email}' already in use`);
  }
}
export class InvalidEmailError extends DomainError {
  constructor() {
    super('Bad name or username');
  }
}
export class InvalidFullNameError extends DomainError {}
export class NoSuchUserError extends NotFoundError {
  constructor() {
    super('No such user');
  }
}
export class LastOwnerError extends DomainError {
  constructor(message = 'The owner permission cannot be removed from the only organization owner.') {
    super(message);
  }
}
export class CannotDeactivateLastOwnerError extends DomainError {
  constructor() {
    super('Cannot deactivate the only organization owner', 'CANNOT_DEACTIVATE_LAST_USER');
  }
}
export class UserAlreadyDeactivatedError extends DomainError {
  constructor() {
    super('User is already deactivated');
  }
}
export class UserAlreadyActiveError extends DomainError {
  constructor() {
    super('User is already active');
  }
}
export class BotOwnerRequiredError extends DomainError {
  constructor() {
    super('Bots must have an owner');
  }
}
