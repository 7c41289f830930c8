/** What the realm settings check of a channel a setting names (`moderation_request_channel_id`). */
export type RealmSettingChannel = { invite_only: boolean; is_archived: boolean };

/**
 * The organization's channels as the realm settings see them. A seam: the channels area, above
 * this one, binds its queries to it (channels.area.ts).
 */
export abstract class RealmChannels {
  abstract byId(realmId: number, channelId: number): Promise<RealmSettingChannel | null>;
}
