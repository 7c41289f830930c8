import type { GroupSetting } from '../shared/system-groups';

/** The channel permission settings of Zulip's stream objects. */
export const CHANNEL_GROUP_SETTING_NAMES = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelGroupSettingName = (typeof CHANNEL_GROUP_SETTING_NAMES)[number];
export type ChannelGroupSettings = Record<ChannelGroupSettingName, GroupSetting>;

/**
 * Zulip's defaults (Stream.stream_permission_group_settings default_group_name): the creator
 * administers the channel through an anonymous group holding only them ("channel_creator"), or
 * nobody when the channel has no creator; administrators remove subscribers; everyone may post and
 * start topics; nothing else is granted beyond the organization-level permissions.
 */
export function defaultChannelGroupSettings(creatorId: number | null): ChannelGroupSettings {
  const nobody: GroupSetting = { system: 'role:nobody' };
  return {
    can_add_subscribers_group: nobody,
    can_administer_channel_group: creatorId === null ? nobody : { direct_members: [creatorId], direct_subgroups: [] },
    can_create_topic_group: { system: 'role:everyone' },
    can_delete_any_message_group: nobody,
    can_delete_own_message_group: nobody,
    can_move_messages_out_of_channel_group: nobody,
    can_move_messages_within_channel_group: nobody,
    can_remove_subscribers_group: { system: 'role:administrators' },
    can_resolve_topics_group: nobody,
    can_send_message_group: { system: 'role:everyone' },
    can_subscribe_group: nobody,
  };
}
