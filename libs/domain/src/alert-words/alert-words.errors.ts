import { DomainError } from '../shared/domain-error';

/** zerver/lib/alert_words.py MAX_ALERT_WORD_LENGTH (the views' StringConstraints(max_length=100)). */
export const MAX_ALERT_WORD_LENGTH = 100;

/** typed_endpoint's string_too_long for an element of `alert_words`: "alert_words[2] is too long (limit: 100 characters)". */
export class AlertWordTooLongError extends DomainError {
  constructor(index: number) {
    super(`alert_words[${index}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
  }
}
