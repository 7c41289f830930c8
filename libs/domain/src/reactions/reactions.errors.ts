import { DomainError } from '../shared/domain-error';

/** zerver/lib/exceptions.py ReactionExistsError. */
export class ReactionAlreadyExistsError extends DomainError {
  constructor() {
    super('Reaction already exists.', 'REACTION_ALREADY_EXISTS');
  }
}

/** zerver/lib/exceptions.py ReactionDoesNotExistError. */
export class ReactionDoesNotExistError extends DomainError {
  constructor() {
    super("Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
  }
}

/** zerver/views/reactions.py remove_reaction without emoji_name nor emoji_code. */
export class EmojiNameOrCodeRequiredError extends DomainError {
  constructor() {
    super('At least one of the following arguments must be present: emoji_name, emoji_code');
  }
}
