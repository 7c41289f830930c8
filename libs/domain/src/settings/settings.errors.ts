import { DomainError } from '../shared/domain-error';

/** json_change_settings with `target_users`: account fields and security-sensitive settings. */
export class CannotChangeSettingForOthersError extends DomainError {
  constructor() {
    super('Cannot change this setting for other users.');
  }
}

/** TargetUsersData.validate_terms. */
export class TargetUsersRequiredError extends DomainError {
  constructor() {
    super('Either user_ids or group_ids must be provided.');
  }
}

/** zerver/lib/users.py user_ids_to_users. */
export class InvalidUserIdError extends DomainError {
  constructor(userId: number) {
    super(`Invalid user ID: ${userId}`);
  }
}

/** zerver/lib/user_groups.py, for `group_ids`. */
export class InvalidUserGroupIdError extends DomainError {
  constructor(groupId: number) {
    super(`Invalid user group ID: ${groupId}`);
  }
}

/** check_settings_values. */
export class InvalidDefaultLanguageError extends DomainError {
  constructor() {
    super('Invalid default_language');
  }
}

export class InvalidNotificationSoundError extends DomainError {
  constructor(sound: string) {
    super(`Invalid notification sound '${sound}'`);
  }
}

export class InvalidBatchingPeriodError extends DomainError {
  constructor(seconds: number) {
    super(`Invalid email batching period: ${seconds} seconds`);
  }
}

/**
 * A value outside a setting's choices, worded as Zulip's typed_endpoint words an AfterValidator's
 * ValueError ("Invalid color_scheme: Value error, Not in the list of possible values").
 */
export class SettingValueNotAllowedError extends DomainError {
  constructor(name: string) {
    super(`Invalid ${name}: Value error, Not in the list of possible values`);
  }
}

/** parse_enum_from_string_value (resolved_topic_notice_auto_read_policy): "Invalid <setting>". */
export class InvalidEnumSettingError extends DomainError {
  constructor(name: string) {
    super(`Invalid ${name}`);
  }
}

/** zerver/lib/typed_endpoint_validators.py check_timezone, through typed_endpoint. */
export class InvalidTimezoneError extends DomainError {
  constructor() {
    super('Invalid timezone: Value error, Not a recognized time zone');
  }
}

/** json_change_settings: the current password did not authenticate. */
export class WrongPasswordError extends DomainError {
  constructor() {
    super('Wrong password!');
  }
}

/** zproject/backends.py check_password_strength failed. */
export class NewPasswordTooWeakError extends DomainError {
  constructor() {
    super('New password is too weak!');
  }
}

/** zerver/lib/email_validation.py validate_email_is_valid. */
export class InvalidEmailAddressError extends DomainError {
  constructor() {
    super('Invalid address.');
  }
}

/** validate_email_not_already_in_realm(verbose=False). */
export class EmailTakenError extends DomainError {
  static active = () => new EmailTakenError('Already has an account.');
  static deactivated = () => new EmailTakenError('Account has been deactivated.');
  constructor(message: string) {
    super(message);
  }
}

/** confirmation/models.py ConfirmationKeyError: unknown, used, revoked or expired links. */
export class ConfirmationLinkError extends DomainError {
  static doesNotExist = () => new ConfirmationLinkError('does_not_exist');
  static expired = () => new ConfirmationLinkError('expired');
  constructor(readonly reason: 'does_not_exist' | 'expired') {
    super(reason === 'expired' ? 'The confirmation link has expired or been deactivated.' : 'Whoops. The confirmation link does not exist.', 'BAD_REQUEST', 404);
  }
}

/** validate_email_change_request: the organization's `email_changes_disabled`, for non-administrators. */
export class EmailChangesDisabledError extends DomainError {
  constructor() {
    super('Email address changes are disabled in this organization.');
  }
}

/**
 * RateLimitedError of Zulip's `email_change_by_user` rule: too many requests to change one's
 * address. The same answer as every rate limit (429 RATE_LIMIT_HIT, `retry-after` in seconds).
 */
export class EmailChangeRateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429, { 'retry-after': retryAfterSeconds });
  }
}
