import type { ClientEvent } from './event-queue';
import type { ClientEventDelivery, ClientEventMapperContext } from './client-event-registry';

/** Zulip's active_user_ids(realm_id): who gets an organization-wide event. */
export const realmWide = (context: ClientEventMapperContext, realmId: number): Promise<number[]> => context.activeUserIds(realmId);

/** One event to every active user of the organization. */
export const toRealm = async (context: ClientEventMapperContext, realmId: number, event: ClientEvent): Promise<ClientEventDelivery[]> => [
  { userIds: await realmWide(context, realmId), event },
];

/** One event to one user (their own settings, drafts, snippets, …). */
export const toUser = (userId: number, event: ClientEvent): ClientEventDelivery[] => [{ userIds: [userId], event }];
