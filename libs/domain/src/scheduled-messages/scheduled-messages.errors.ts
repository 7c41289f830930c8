import { DomainError, NotFoundError } from '../shared/domain-error';

/** zerver/lib/scheduled_messages.py access_scheduled_message (another user's, unknown or deleted: 404). */
export class ScheduledMessageDoesNotExistError extends NotFoundError {
  constructor() {
    super('Scheduled message does not exist');
  }
}

/** zerver/lib/exceptions.py DeliveryTimeNotInFutureError. */
export class DeliveryTimeNotInFutureError extends DomainError {
  constructor() {
    super('Scheduled delivery time must be in the future.');
  }
}

/** edit_scheduled_message on a delivered (or claimed) scheduled message. */
export class ScheduledMessageAlreadySentError extends DomainError {
  constructor() {
    super('Scheduled message was already sent');
  }
}

/** update_scheduled_message_backend's parameter checks. */
export class ScheduledMessageEditError extends DomainError {
  static nothingToChange = () => new ScheduledMessageEditError('Nothing to change');
  static recipientRequired = () => new ScheduledMessageEditError('Recipient required when updating type of scheduled message.');
  static topicRequired = () => new ScheduledMessageEditError('Topic required when updating scheduled message type to channel.');
}

/**
 * Why a delivery fails before the send checks (send_scheduled_message), with Zulip's messages:
 * they become the scheduled message's failure_message.
 */
export const DELIVERY_FAILURES = {
  realmDeactivated: 'This organization has been deactivated',
  senderDeactivated: 'Account is deactivated',
  tooLate: 'Message could not be sent at the scheduled time.',
  internal: 'Internal server error',
} as const;

/** SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: a delivery later than this after its time fails instead. */
export const SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES = 10;
