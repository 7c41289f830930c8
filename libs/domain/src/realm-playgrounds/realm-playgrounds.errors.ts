import { DomainError } from '../shared/domain-error';

/**
 * Zulip's ValidationFailureError for RealmPlayground.full_clean: the first message, and `errors`,
 * the messages by field (`url_template`, `name`, `pygments_language`, or `__all__` for
 * RealmPlayground.clean and the unique (realm, pygments_language, name) constraint).
 */
export class RealmPlaygroundValidationError extends DomainError {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors).flat()[0], 'BAD_REQUEST', 400, { errors });
  }
}

/** check_pygments_language (the view's parameter check, before the model's own). */
export class InvalidPygmentsLanguageError extends DomainError {
  constructor() {
    super('Invalid characters in pygments language');
  }
}

/** access_playground_by_id. */
export class InvalidPlaygroundError extends DomainError {
  constructor() {
    super('Invalid playground');
  }
}
