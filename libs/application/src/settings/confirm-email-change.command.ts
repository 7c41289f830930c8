import { Command } from '@nestjs/cqrs';

/** `GET /accounts/confirm_new_email/<token>` (confirm_email_change). Answers the old and new address. */
export class ConfirmEmailChangeCommand extends Command<{ oldEmail: string; newEmail: string }> {
  constructor(readonly token: string) {
    super();
  }
}
