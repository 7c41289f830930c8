/**
 * Zulip's error codes (zerver/lib/exceptions.py ErrorCode) that this server emits.
 * Clients branch on them, so they are spelled exactly as Zulip spells them.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'REQUEST_VARIABLE_MISSING',
  'REQUEST_VARIABLE_INVALID',
  'INVALID_JSON',
  'BAD_IMAGE',
  'REALM_UPLOAD_QUOTA',
  'BAD_NARROW',
  'CANNOT_DEACTIVATE_LAST_USER',
  'MISSING_HTTP_EVENT_HEADER',
  'STREAM_DOES_NOT_EXIST',
  'UNAUTHORIZED_PRINCIPAL',
  'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
  'ANOMALOUS_WEBHOOK_PAYLOAD',
  'BAD_EVENT_QUEUE_ID',
  'CSRF_FAILED',
  'INVITATION_FAILED',
  'INVALID_ZULIP_SERVER',
  'INVALID_PUSH_DEVICE_TOKEN',
  'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
  'INVALID_MARKDOWN_INCLUDE_STATEMENT',
  'REQUEST_CONFUSING_VAR',
  'INVALID_API_KEY',
  'INVALID_ZOOM_TOKEN',
  'UNAUTHENTICATED_USER',
  'NONEXISTENT_SUBDOMAIN',
  'RATE_LIMIT_HIT',
  'USER_DEACTIVATED',
  'REALM_DEACTIVATED',
  'PASSWORD_AUTH_DISABLED',
  'PASSWORD_RESET_REQUIRED',
  'AUTHENTICATION_FAILED',
  'UNAUTHORIZED',
  'REQUEST_TIMEOUT',
  'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
  'REACTION_ALREADY_EXISTS',
  'REACTION_DOES_NOT_EXIST',
  'SERVER_NOT_READY',
  'MISSING_REMOTE_REALM',
  'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
  'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
  'PUSH_SERVICE_NOT_CONFIGURED',
  'PERMISSION_DENIED',
  'EXPECTATION_MISMATCH',
  'INTERNAL_SERVER_ERROR',
  'METHOD_NOT_ALLOWED',
  'NOT_FOUND',
  'CANNOT_DEACTIVATE_GROUP_IN_USE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one error type that reaches clients, shaped like Zulip's JsonableError:
 * a message, a code, an HTTP status and optional extra fields merged into the error body.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = 'BAD_REQUEST',
    readonly httpStatus: number = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Zulip's ResourceNotFoundError: BAD_REQUEST code with HTTP 404. */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(message, 'BAD_REQUEST', 404);
  }
}

/** Administrator-only endpoints (Zulip's @require_realm_admin). */
export class MustBeAdministratorError extends DomainError {
  constructor() {
    super('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL', 400);
  }
}

export class MustBeOwnerError extends DomainError {
  constructor() {
    super('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL', 400);
  }
}

/** Endpoints only bots may call (`/bot_storage`, since feature level 494): a human caller is refused. */
export class MustBeBotUserError extends DomainError {
  constructor() {
    super('Must be a bot user', 'PERMISSION_DENIED', 400);
  }
}

/** RequestVariableConversionError: "Bad value for 'x': v". */
export class BadSettingValueError extends DomainError {
  constructor(setting: string, value: unknown) {
    super(`Bad value for '${setting}': ${String(value)}`);
  }
}
