/**
 * Channel metadata of one organization lives on one stream, `channels-<realmId>`: names are unique
 * per organization, case-insensitively (Zulip's get_or_create(name__iexact=...)), and renaming or
 * creating must see every other name. Everything else about a channel's metadata (description,
 * privacy, archiving) changes rarely, so one small stream per organization costs little contention
 * and makes "create these channels" or "update this channel" a single atomic append.
 *
 * Membership does not live here: it changes often and grows with the organization, so each channel
 * keeps its subscriptions on its own stream (see subscriptionsStream), and subscribing never
 * contends with other channels.
 */
export const channelsStream = (realmId: number) => `channels-${realmId}`;
