import type { ChannelGroupSettings, ChannelTopicsPolicy } from '@app/domain';

/**
 * A channel as Zulip's stream object describes it (zerver/lib/streams.py stream_to_dict), plus what
 * queries need: `realm_id`, `name_key` (the case-insensitive name) and the permission settings in
 * symbolic form (`group_settings`), turned into the API's group ids when formatted.
 *
 * `subscriber_count` counts active subscriptions; users deactivated since are subtracted when the
 * channel is formatted (Zulip counts only active users), because deactivation happens elsewhere.
 */
export type ChannelDocument = {
  stream_id: number;
  realm_id: number;
  name: string;
  name_key: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** Seconds since the epoch. */
  date_created: number;
  creator_id: number | null;
  is_archived: boolean;
  subscriber_count: number;
  group_settings: ChannelGroupSettings;
  /** The channel folder it is in (absent or null: none). */
  folder_id?: number | null;
  /** The channel's own topics_policy (absent: "inherit", the organization's). */
  topics_policy?: ChannelTopicsPolicy;
  /** A default channel for new users (absent: not one). Never private or archived. */
  is_default?: boolean;
  /** The channel's own message_retention_days (-1: forever); absent or null: the organization's. */
  message_retention_days?: number | null;
};

export const CHANNELS = 'channels';

/** A topic of a channel as `GET /users/me/{stream_id}/topics` lists it. */
export type ChannelTopic = { name: string; max_id: number };
