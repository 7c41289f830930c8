import { DomainError } from '@app/domain';

/*
 * Zulip's authentication failures (zerver/lib/exceptions.py), with their codes and statuses.
 * Over HTTP Basic, Zulip's authenticated_rest_api_view turns every failure of validate_api_key into
 * an UnauthorizedError with the same message (401, code UNAUTHORIZED): see
 * AuthenticationService.authenticateHttpBasic.
 */

/** InvalidAPIKeyError. */
export class InvalidApiKeyError extends DomainError {
  constructor() {
    super('Invalid API key', 'INVALID_API_KEY', 401);
  }
}
/** InvalidAPIKeyFormatError: not 32 characters of [A-Za-z0-9]. */
export class InvalidApiKeyFormatError extends DomainError {
  constructor() {
    super('Malformed API key', 'INVALID_API_KEY', 401);
  }
}
/** AuthenticationFailedError (fetch_api_key with a wrong email or password). */
export class AuthenticationFailedError extends DomainError {
  constructor() {
    super('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
  }
}
/** UserDeactivatedError. */
export class UserDeactivatedError extends DomainError {
  constructor() {
    super('Account is deactivated', 'USER_DEACTIVATED', 401);
  }
}
/** RealmDeactivatedError. */
export class RealmDeactivatedError extends DomainError {
  constructor() {
    super('This organization has been deactivated', 'REALM_DEACTIVATED', 401);
  }
}
/** zerver/decorator.py validate_api_key: incoming webhook bots may only use webhook endpoints. */
export class WebhookBotApiNotAvailableError extends DomainError {
  constructor() {
    super('This API is not available to incoming webhook bots.');
  }
}
/** zerver/lib/validator.py validate_login_email (Django's validate_email message). */
export class InvalidLoginEmailError extends DomainError {
  constructor() {
    super('Enter a valid email address.');
  }
}
/** InvalidSubdomainError: no such organization, or the account belongs to another one. */
export class InvalidSubdomainError extends DomainError {
  constructor() {
    super('Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 404);
  }
}
/** UnauthorizedError (401, UNAUTHORIZED); clients also get `WWW-Authenticate: Basic realm="zulip"`. */
export class UnauthorizedError extends DomainError {
  constructor(message = 'Not logged in: API authentication or user session required') {
    super(message, 'UNAUTHORIZED', 401);
  }
}
/** zerver/views/development/dev_login.py check_dev_auth_backend on a production server. */
export class DevAuthNotAvailableError extends DomainError {
  constructor() {
    super('Endpoint not available in production.');
  }
}

/** check_dev_auth_backend elsewhere than on a development server (here: NODE_ENV=test). */
export class DevAuthNotEnabledError extends DomainError {
  constructor() {
    super('DevAuthBackend not enabled.');
  }
}

/**
 * The development login (dev_fetch_api_key, dev_list_users) hands out any account's key without a
 * password: open only on a development server (NODE_ENV=development), never in production or test.
 */
export function checkDevAuthAvailable(env: 'development' | 'production' | 'test'): void {
  if (env === 'production') throw new DevAuthNotAvailableError();
  if (env !== 'development') throw new DevAuthNotEnabledError();
}
