import { Injectable } from '@nestjs/common';
import { type Actor, EmailChangesDisabledError, EmailTakenError, InvalidEmailAddressError, isAdministrator, isValidEmailAddress } from '@app/domain';
import { RealmQueries, realmMessagingSettingsOf } from '../realms/realm.queries';
import { UserDeactivatedError } from '../users/authentication.errors';
import { UserQueries } from '../users/user.queries';

/**
 * validate_email_change_request, against the read models, when the change is asked for and again
 * when its link is followed: an active account (allowed), in an organization that lets its members
 * change their address (`email_changes_disabled`: administrators always may), to a well-formed
 * address that no account of the organization has (case-insensitively: one's own address in other
 * case counts as taken). The users stream checks the address again when it takes it.
 */
@Injectable()
export class EmailChangeChecks {
  constructor(
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
  ) {}

  /** The account may change its address now: "Account is deactivated", "Email address changes are disabled…". */
  async checkAllowed(actor: Actor, isActive: boolean): Promise<void> {
    if (!isActive) throw new UserDeactivatedError();
    const realm = await this.realms.mustFindById(actor.realmId);
    if (realmMessagingSettingsOf(realm).email_changes_disabled && !isAdministrator(actor)) throw new EmailChangesDisabledError();
  }

  async check(realmId: number, newEmail: string): Promise<void> {
    if (!isValidEmailAddress(newEmail)) throw new InvalidEmailAddressError();
    const holder = await this.users.byEmail(realmId, newEmail);
    if (holder) throw holder.is_active ? EmailTakenError.active() : EmailTakenError.deactivated();
  }
}
