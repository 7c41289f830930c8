import { DomainError } from '../shared/domain-error';

/**
 * Zulip's ValidationFailureError: the first message of the Django ValidationError, and `errors`,
 * its messages by field (`pattern`, `url_template`, or `__all__` for the checks of RealmFilter.clean
 * and the unique (realm, pattern) constraint).
 */
export class LinkifierValidationError extends DomainError {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors).flat()[0], 'BAD_REQUEST', 400, { errors });
  }
}

export class LinkifierNotFoundError extends DomainError {
  constructor() {
    super('Linkifier not found.');
  }
}

export class DuplicatedLinkifiersError extends DomainError {
  constructor() {
    super('The ordered list must not contain duplicated linkifiers');
  }
}

export class IncompleteLinkifierOrderError extends DomainError {
  constructor() {
    super('The ordered list must enumerate all existing linkifiers exactly once');
  }
}
