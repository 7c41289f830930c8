import { DomainError } from '../shared/domain-error';

/** zerver/views/submessage.py: `content` is not JSON. */
export class InvalidSubmessageJsonError extends DomainError {
  constructor() {
    super('Invalid json for submessage');
  }
}

/** zerver/actions/submessage.py verify_submessage_sender. */
export class SubmessageSenderError extends DomainError {
  constructor() {
    super('You cannot attach a submessage to this message.');
  }
}

/** validate_poll_data / validate_todo_data (zerver/lib/validator.py): the ValidationError's message. */
export class InvalidWidgetDataError extends DomainError {
  constructor(message: string) {
    super(message);
  }
}
