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

/**
 * Zulip's check_capped_string for realm settings: "name is too long (limit: 40 characters)",
 * "description is too long (limit: 1000 characters)".
 */
export class RealmSettingTooLongError extends DomainError {
  constructor(property: string, maxLength: number) {
    super(`${property} is too long (limit: ${maxLength} characters)`);
  }
}
