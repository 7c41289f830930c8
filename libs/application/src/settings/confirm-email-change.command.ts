import { Command } from '@nestjs/cqrs';

/**
 * `GET /accounts/confirm_new_email/<key>` (confirm_email_change): the key from the link (a secret:
 * never logged, never in an event). Answers the old and new address.
 */
export class ConfirmEmailChangeCommand extends Command<{ oldEmail: string; newEmail: string }> {
  constructor(readonly key: string) {
    super();
  }
}
