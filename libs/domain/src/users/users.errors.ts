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
/** Zulip's access_user_by_id: a plain 400. */
export class NoSuchUserError extends DomainError {
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
    // An administrator deactivating the last owner gets Zulip's plain JsonableError (BAD_REQUEST);
    // CANNOT_DEACTIVATE_LAST_USER is for deactivating oneself (CannotDeactivateLastUserError).
    super('Cannot deactivate the only organization owner');
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

/** Zulip's access_user_by_id / access_bot_by_id when the actor may not administer the target (can_admin_user). */
export class InsufficientPermissionError extends DomainError {
  constructor() {
    super('Insufficient permission');
  }
}
/** zerver/lib/users.py access_bot_by_id. */
export class NoSuchBotError extends DomainError {
  constructor() {
    super('No such bot');
  }
}
/** zerver/views/users.py add_bot_backend: the bot's email (`<short_name>-bot@<realm host>`) is taken. */
export class UsernameAlreadyInUseError extends DomainError {
  constructor() {
    super('Username already in use');
  }
}
/** zerver/lib/users.py check_bot_name_available(is_activation=False). */
export class BotNameInUseError extends DomainError {
  constructor() {
    super('Name is already in use.');
  }
}
/** zerver/lib/users.py check_bot_name_available(is_activation=True), when reactivating a bot. */
export class BotNameInUseOnReactivationError extends DomainError {
  constructor(fullName: string) {
    super(
      `There is already an active bot named "${fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
  }
}
/** zerver/lib/users.py check_valid_bot_type. */
export class InvalidBotTypeError extends DomainError {
  constructor() {
    super('Invalid bot type');
  }
}
/** zerver/lib/users.py access_user_common: the target account is deactivated. */
export class UserIsDeactivatedError extends DomainError {
  constructor() {
    super('User is deactivated');
  }
}
/** A bot's owner must be a human account (Zulip's wording from patch_bot_backend, without the "Failed to change owner" prefix). */
export class BotCannotOwnBotError extends DomainError {
  constructor() {
    super("Bots can't own other bots");
  }
}
/** zerver/views/users.py patch_bot_backend, bot_owner_id. */
export class ChangeBotOwnerError extends DomainError {
  static noSuchUser = () => new ChangeBotOwnerError('Failed to change owner, no such user');
  static deactivated = () => new ChangeBotOwnerError('Failed to change owner, user is deactivated');
  static ownerIsBot = () => new ChangeBotOwnerError("Failed to change owner, bots can't own other bots");
  constructor(message: string) {
    super(message);
  }
}
/**
 * zerver/lib/exceptions.py CannotDeactivateLastUserError, raised when users deactivate their own
 * account (deactivate_user_own_backend): "Cannot deactivate the only user." or
 * "Cannot deactivate the only organization owner.", with `is_last_owner` and `entity` in the body.
 */
export class CannotDeactivateLastUserError extends DomainError {
  constructor(isLastOwner: boolean) {
    const entity = isLastOwner ? 'organization owner' : 'user';
    super(`Cannot deactivate the only ${entity}.`, 'CANNOT_DEACTIVATE_LAST_USER', 400, { is_last_owner: isLastOwner, entity });
  }
}
