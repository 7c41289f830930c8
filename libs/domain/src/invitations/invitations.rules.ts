import { type Actor, isAdministrator, ROLE_VALUES } from '../shared/actor';
import { DomainError, MustBeAdministratorError, MustBeOwnerError } from '../shared/domain-error';
import { GuestUsersNotAllowedError } from '../subscriptions/subscriptions.errors';
import { isValidEmailAddress } from '../users/users.rules';
import { InvalidInviteAsError, type InvitationErrorEntry } from './invitations.errors';

/** PreregistrationUser.INVITE_AS: the role values an invitation may carry. */
export const INVITE_AS_VALUES: readonly number[] = Object.values(ROLE_VALUES);

/** settings.INVITATION_LINK_VALIDITY_DAYS (10), in minutes: the default invite_expires_in_minutes. */
export const DEFAULT_INVITATION_VALIDITY_MINUTES = 10 * 24 * 60;

/**
 * Realm.max_invites' default (settings.INVITES_DEFAULT_REALM_DAILY_MAX): how many invitation mails
 * an organization may send in 24 hours. Zulip applies it only on servers with open organization
 * creation; this server applies it always, as a brake on a compromised account sending spam.
 */
export const MAX_INVITES_PER_DAY = 100;

/** require_member_or_admin, on every invitation endpoint: "Not allowed for guest users". */
export function checkNotGuest(actor: Actor): void {
  if (actor.role === 'guest') throw new GuestUsersNotAllowedError();
}

/** check_int_in_validator on invite_as. */
export function checkInviteAs(invitedAs: number): void {
  if (!INVITE_AS_VALUES.includes(invitedAs)) throw new InvalidInviteAsError();
}

/**
 * check_role_based_permissions: only owners invite owners; administrators, moderators and owners are
 * invited by administrators (`requireAdmin`, also for acting on someone else's invitation).
 */
export function checkRoleBasedPermissions(actor: Actor, invitedAs: number, requireAdmin: boolean): void {
  if (invitedAs === ROLE_VALUES.owner && actor.role !== 'owner' && actor.role !== 'operator') throw new MustBeOwnerError();
  if (requireAdmin && !isAdministrator(actor)) throw new MustBeAdministratorError();
}

/** The roles only administrators may invite (owners, by owners alone: checkRoleBasedPermissions). */
export const invitingRequiresAdmin = (invitedAs: number): boolean =>
  invitedAs === ROLE_VALUES.owner || invitedAs === ROLE_VALUES.administrator || invitedAs === ROLE_VALUES.moderator;

/**
 * get_invitee_emails_set: the addresses are separated by commas or newlines, each possibly written
 * `Name <address>`; blanks around them are dropped; each address once, whatever its case.
 */
export function parseInviteeEmails(raw: string): string[] {
  // Addresses differing only in case are one mailbox (and one account: addresses are unique
  // regardless of case), so the first spelling is kept.
  const emails = new Map<string, string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    const email = (named ? named[1] : part).trim();
    if (!emails.has(email.toLowerCase())) emails.set(email.toLowerCase(), email);
  }
  return [...emails.values()];
}

/** What the organization knows of an address: an account, active or not. */
export type ExistingAccount = { deactivated: boolean };

/**
 * do_invite_users' sorting of the invitees: malformed addresses (`errors`, which refuse the whole
 * request), addresses that already have an account (`skipped`: get_existing_user_errors), the rest.
 */
export function sortInvitees(emails: string[], existing: ReadonlyMap<string, ExistingAccount>): { errors: InvitationErrorEntry[]; skipped: InvitationErrorEntry[]; valid: string[] } {
  const errors: InvitationErrorEntry[] = [];
  const skipped: InvitationErrorEntry[] = [];
  const valid: string[] = [];
  for (const email of emails) {
    if (!isValidEmailAddress(email)) {
      errors.push([email, 'Invalid address.', false]);
      continue;
    }
    const account = existing.get(email.toLowerCase());
    if (account) skipped.push([email, account.deactivated ? 'Account has been deactivated.' : 'Already has an account.', account.deactivated]);
    else valid.push(email);
  }
  return { errors, skipped, valid };
}

/**
 * The longest invite_expires_in_minutes taken: ten years. Zulip's validator takes any integer
 * (check_none_or(check_int)); here a link must expire in the future and at a date that can be
 * written down (null is the way to say never).
 */
export const MAX_INVITATION_VALIDITY_MINUTES = 10 * 365 * 24 * 60;

/** invite_expires_in_minutes: a positive whole number of minutes up to the maximum, or null for never. */
export function checkInvitationValidity(minutes: number | null): void {
  if (minutes === null) return;
  if (!Number.isSafeInteger(minutes) || minutes <= 0 || minutes > MAX_INVITATION_VALIDITY_MINUTES) throw new DomainError('Invalid invite_expires_in_minutes');
}

/** When a link made at `now` stops working (null minutes: never). */
export const invitationExpiry = (now: string, minutes: number | null): string | null =>
  minutes === null ? null : new Date(Date.parse(now) + minutes * 60_000).toISOString();
