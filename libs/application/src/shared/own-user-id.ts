import type { Actor } from '@app/domain';

/** Personal data (drafts, snippets, mutes, bot storage) belongs to an account: the operator has none. */
export function ownUserId(actor: Actor): number {
  if (actor.userId === null) throw new Error('personal data needs an account, not the operator');
  return actor.userId;
}
