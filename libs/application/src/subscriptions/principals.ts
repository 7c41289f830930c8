import { type Actor, NoSuchUserError, UserIsDeactivatedError } from '@app/domain';
import type { UserQueries } from '../users/user.queries';
import type { UserDocument } from '../users/user.documents';

/** `principals`: all emails or all user ids (Zulip's Json[list[str] | list[int]]). */
export type Principals = string[] | number[];

/**
 * zerver/views/streams.py bulk_principals_to_user_profiles (bulk_access_users_by_email / _by_id
 * with bots allowed and deactivated accounts refused): "No such user" when any principal is not an
 * account of the organization, then "User is deactivated". Each account appears once. An address
 * is one the actor may use (UserQueries.byEmailAs: email_address_visibility).
 */
export async function resolvePrincipals(users: UserQueries, actor: Actor, principals: Principals): Promise<UserDocument[]> {
  const found = await Promise.all(
    (principals as (string | number)[]).map((p) => (typeof p === 'number' ? users.byId(actor.realmId, p) : users.byEmailAs(actor, p))),
  );
  if (found.some((user) => user === null)) throw new NoSuchUserError();
  const accounts = [...new Map((found as UserDocument[]).map((u) => [u.user_id, u])).values()];
  if (accounts.some((u) => !u.is_active)) throw new UserIsDeactivatedError();
  return accounts;
}
