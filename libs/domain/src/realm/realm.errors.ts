import { DomainError } from '../shared/domain-error';

export class RealmStringIdTakenError extends DomainError {
  constructor(stringId: string) {
    super(`Subdomain '${stringId}' is already in use`);
  }
}
export class InvalidRealmStringIdError extends DomainError {
  constructor() {
    super('Subdomain can only have lowercase letters, numbers, and \'-\'s.');
  }
}
export class InvalidRealmNameError extends DomainError {
  constructor(message: string) {
    super(message);
  }
}
