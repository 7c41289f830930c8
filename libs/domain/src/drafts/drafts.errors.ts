import { DomainError, NotFoundError } from '../shared/domain-error';

/** zerver/lib/drafts.py draft_endpoint: every draft endpoint, while enable_drafts_synchronization is off. */
export class DraftsSynchronizationDisabledError extends DomainError {
  constructor() {
    super('User has disabled synchronizing drafts.');
  }
}

/** do_edit_draft / do_delete_draft: unknown ids and other users' drafts alike (ResourceNotFoundError, 404). */
export class DraftDoesNotExistError extends NotFoundError {
  constructor() {
    super('Draft does not exist');
  }
}

/** further_validated_draft_dict. */
export class InvalidDraftError extends DomainError {
  static negativeTimestamp = () => new InvalidDraftError('Timestamp must not be negative.');
  static topicHasNullBytes = () => new InvalidDraftError('Topic must not contain null bytes');
  static notExactlyOneChannel = () => new InvalidDraftError('Must specify exactly 1 channel ID for channel messages');
}
