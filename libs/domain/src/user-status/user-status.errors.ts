import { DomainError } from '../shared/domain-error';

/** check_update_user_status. */
export class NoNewStatusValuesError extends DomainError {
  constructor() {
    super('Client did not pass any new values.');
  }
}

export class EmojiNameRequiredError extends DomainError {
  constructor() {
    super('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
}

/** StringConstraints(strip_whitespace=True, max_length=60), through typed_endpoint. */
export class StatusTextTooLongError extends DomainError {
  constructor() {
    super('status_text is too long (limit: 60 characters)');
  }
}
