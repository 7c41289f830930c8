import { UnauthorizedError } from '@app/application';
import { DomainError } from '@app/domain';

export { UnauthorizedError };

/** Zulip's MissingAuthenticationError: no credentials at all. */
export class MissingAuthenticationError extends UnauthorizedError {
  constructor() {
    super('Not logged in: API authentication or user session required');
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429, { 'retry-after': retryAfterSeconds });
  }
}

export class MethodNotAllowedError extends DomainError {
  constructor(readonly allowedMethods: string[]) {
    super('Method Not Allowed', 'BAD_REQUEST', 405, { allowed_methods: allowedMethods });
  }
}

export class RouteNotFoundError extends DomainError {
  constructor() {
    super('Not Found', 'BAD_REQUEST', 404);
  }
}
