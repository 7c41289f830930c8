import { CHANNEL_GROUP_SETTING_NAMES, type ChannelAccessFacts, type ChannelGroupSettingName, type GroupSetting, type SystemGroupName } from '@app/domain';
import type { ChannelDocument } from './channel.documents';

/** A group-setting value as the API sends it: a named group's id, or an anonymous group. */
export type ApiGroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** Zulip's stream object (zerver/lib/types.py APIStreamDict, stream_to_dict). */
export type ApiStream = Record<ChannelGroupSettingName, ApiGroupSettingValue> & {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  is_archived: boolean;
  first_message_id: number | null;
  folder_id: number | null;
  is_recently_active: boolean;
  message_retention_days: number | null;
  stream_post_policy: number;
  is_announcement_only: boolean;
  stream_weekly_traffic: number | null;
  subscriber_count: number;
  topics_policy: string;
  is_default?: boolean;
};

export type FormatContext = {
  groupIds: Record<SystemGroupName, number>;
  /** Active subscribers who are active users (Zulip's Stream.subscriber_count). */
  subscriberCount: number;
};

/**
 * Zulip's Stream.STREAM_POST_POLICY_* for legacy clients, from can_send_message_group
 * (get_stream_post_policy_value_based_on_group_setting): everyone 1, administrators 2, full
 * members 3, moderators 4; any other group reads as everyone.
 */
const STREAM_POST_POLICY: Partial<Record<SystemGroupName, number>> = {
  'role:everyone': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
};
const STREAM_POST_POLICY_ADMINS = 2;

export const apiGroupSettingValue = (setting: GroupSetting, groupIds: Record<SystemGroupName, number>): ApiGroupSettingValue =>
  'system' in setting
    ? groupIds[setting.system]
    : { direct_members: [...setting.direct_members], direct_subgroups: setting.direct_subgroups.map((name) => groupIds[name]) };

export const streamPostPolicy = (setting: GroupSetting): number => ('system' in setting ? (STREAM_POST_POLICY[setting.system] ?? 1) : 1);

export const accessFactsOf = (channel: ChannelDocument): ChannelAccessFacts => ({
  inviteOnly: channel.invite_only,
  historyPublicToSubscribers: channel.history_public_to_subscribers,
  isWebPublic: channel.is_web_public,
  creatorId: channel.creator_id,
  isArchived: channel.is_archived,
});

/**
 * The stream object of a stored channel. Fields the messaging core owns start at the values of a
 * channel without messages: no first message, recently active (Zulip's default for new channels),
 * and no weekly traffic figure (null, as Zulip reports for channels it has no traffic data on).
 * `message_retention_days` is the channel's own (null: the organization's); `topics_policy` is the channel's own,
 * "inherit" when it has none; `folder_id` is the channel's folder, null when it has none.
 */
export function formatStream(channel: ChannelDocument, context: FormatContext): ApiStream {
  const groups = Object.fromEntries(
    CHANNEL_GROUP_SETTING_NAMES.map((name) => [name, apiGroupSettingValue(channel.group_settings[name], context.groupIds)]),
  ) as Record<ChannelGroupSettingName, ApiGroupSettingValue>;
  const postPolicy = streamPostPolicy(channel.group_settings.can_send_message_group);
  return {
    is_archived: channel.is_archived,
    ...groups,
    creator_id: channel.creator_id,
    date_created: channel.date_created,
    description: channel.description,
    first_message_id: null,
    folder_id: channel.folder_id ?? null,
    is_recently_active: true,
    history_public_to_subscribers: channel.history_public_to_subscribers,
    invite_only: channel.invite_only,
    is_web_public: channel.is_web_public,
    message_retention_days: channel.message_retention_days ?? null,
    name: channel.name,
    rendered_description: channel.rendered_description,
    stream_id: channel.stream_id,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === STREAM_POST_POLICY_ADMINS,
    stream_weekly_traffic: null,
    subscriber_count: context.subscriberCount,
    topics_policy: channel.topics_policy ?? 'inherit',
  };
}

/** Python's default string order (code points), which Zulip sorts channel lists by. */
export const compareChannelNames = (a: { name: string }, b: { name: string }): number => {
  const x = [...a.name].map((c) => c.codePointAt(0)!);
  const y = [...b.name].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};
