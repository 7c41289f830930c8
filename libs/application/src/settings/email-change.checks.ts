import { Injectable } from '@nestjs/common';
import { EmailTakenError, InvalidEmailAddressError, isValidEmailAddress } from '@app/domain';
import { UserQueries } from '../users/user.queries';

/**
 * validate_email_change_request, against the read models: a well-formed address that no account
 * of the organization has (case-insensitively: one's own address in other case counts as taken).
 * The users stream checks again when the change is confirmed.
 */
@Injectable()
export class EmailChangeChecks {
  constructor(private readonly users: UserQueries) {}

  async check(realmId: number, newEmail: string): Promise<void> {
    if (!isValidEmailAddress(newEmail)) throw new InvalidEmailAddressError();
    const holder = await this.users.byEmail(realmId, newEmail);
    if (holder) throw holder.is_active ? EmailTakenError.active() : EmailTakenError.deactivated();
  }
}
