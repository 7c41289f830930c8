/** Who may read a channel and its history (Zulip's invite_only / history_public_to_subscribers / is_web_public). */
export type ChannelPrivacy = { inviteOnly: boolean; historyPublicToSubscribers: boolean; isWebPublic: boolean };

/**
 * StreamTopicsPolicyEnum, by the names the API uses: "inherit" follows the organization's
 * topics_policy; the others are the channel's own (empty_topic_only: only the empty topic).
 */
export const CHANNEL_TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;
export type ChannelTopicsPolicy = (typeof CHANNEL_TOPICS_POLICIES)[number];
/** The policy a channel message is checked against: never "inherit". */
export type EffectiveTopicsPolicy = Exclude<ChannelTopicsPolicy, 'inherit'>;
/** get_stream_topics_policy: the channel's own policy, or the organization's when it is "inherit" (or unset). */
export const effectiveTopicsPolicy = (channelPolicy: ChannelTopicsPolicy | undefined, realmPolicy: EffectiveTopicsPolicy): EffectiveTopicsPolicy =>
  channelPolicy === undefined || channelPolicy === 'inherit' ? realmPolicy : channelPolicy;

/** AuditLogEventType.CHANNEL_CREATED (create_stream_if_needed). */
export type ChannelCreated = {
  type: 'ChannelCreated';
  data: ChannelPrivacy & {
    realmId: number;
    channelId: number;
    name: string;
    description: string;
    /** HTML of the description, rendered when it was written (Zulip stores rendered_description too). */
    renderedDescription: string;
    /** Null when the channel was created by the system or the operator. */
    creatorId: number | null;
    actorId: number | null;
    at: string;
    /** The `topics_policy` it was created with; absent: "inherit" (and every channel created before it existed). */
    topicsPolicy?: ChannelTopicsPolicy;
    /** Its own message_retention_days (-1: forever); absent: the organization's (Zulip's null). */
    messageRetentionDays?: number;
  };
};

/** AuditLogEventType.CHANNEL_NAME_CHANGED (do_rename_stream). */
export type ChannelNameChanged = {
  type: 'ChannelNameChanged';
  data: { realmId: number; channelId: number; oldName: string; newName: string; actorId: number | null; at: string };
};

/** CHANNEL_PROPERTY_CHANGED for `description` (do_change_stream_description). */
export type ChannelDescriptionChanged = {
  type: 'ChannelDescriptionChanged';
  data: {
    realmId: number;
    channelId: number;
    oldDescription: string;
    newDescription: string;
    renderedDescription: string;
    actorId: number | null;
    at: string;
  };
};

/** CHANNEL_PROPERTY_CHANGED for the access settings, changed together (do_change_stream_permission). */
export type ChannelPermissionChanged = {
  type: 'ChannelPermissionChanged';
  data: { realmId: number; channelId: number; old: ChannelPrivacy; new: ChannelPrivacy; actorId: number | null; at: string };
};

/** AuditLogEventType.CHANNEL_DEACTIVATED (do_deactivate_stream): the channel is archived, name and subscriptions kept. */
export type ChannelDeactivated = {
  type: 'ChannelDeactivated';
  data: { realmId: number; channelId: number; actorId: number | null; at: string };
};

/** AuditLogEventType.CHANNEL_REACTIVATED (do_unarchive_stream). */
export type ChannelReactivated = {
  type: 'ChannelReactivated';
  data: { realmId: number; channelId: number; actorId: number | null; at: string };
};

/** AuditLogEventType.CHANNEL_FOLDER_CHANGED (do_change_stream_folder); null: in no folder. */
export type ChannelFolderChanged = {
  type: 'ChannelFolderChanged';
  data: { realmId: number; channelId: number; oldFolderId: number | null; newFolderId: number | null; actorId: number | null; at: string };
};

/** CHANNEL_PROPERTY_CHANGED for `topics_policy` (do_set_stream_property). */
export type ChannelTopicsPolicyChanged = {
  type: 'ChannelTopicsPolicyChanged';
  data: { realmId: number; channelId: number; oldPolicy: ChannelTopicsPolicy; newPolicy: ChannelTopicsPolicy; actorId: number | null; at: string };
};

/**
 * do_add_default_stream: new users join the channel when their account is created. Only a public
 * channel that is not archived can be one; the channels decider keeps it so.
 */
export type DefaultChannelAdded = {
  type: 'DefaultChannelAdded';
  /** defaultChannelIds: every default channel of the organization after the change, by id (what notify_default_streams sends). */
  data: { realmId: number; channelId: number; defaultChannelIds: number[]; actorId: number | null; at: string };
};

/** do_remove_default_stream: by request, or because the channel is archived or made private in the same change. */
export type DefaultChannelRemoved = {
  type: 'DefaultChannelRemoved';
  data: { realmId: number; channelId: number; defaultChannelIds: number[]; actorId: number | null; at: string };
};

/**
 * AuditLogEventType.CHANNEL_MESSAGE_RETENTION_DAYS_CHANGED (do_change_stream_message_retention_days):
 * days, -1 (forever) or null (the organization's value).
 */
export type ChannelMessageRetentionDaysChanged = {
  type: 'ChannelMessageRetentionDaysChanged';
  data: { realmId: number; channelId: number; oldValue: number | null; newValue: number | null; actorId: number | null; at: string };
};

export type ChannelEvent =
  | ChannelMessageRetentionDaysChanged
  | DefaultChannelAdded
  | DefaultChannelRemoved
  | ChannelTopicsPolicyChanged
  | ChannelFolderChanged
  | ChannelCreated
  | ChannelNameChanged
  | ChannelDescriptionChanged
  | ChannelPermissionChanged
  | ChannelDeactivated
  | ChannelReactivated;

export const CHANNEL_EVENT_TYPES: readonly ChannelEvent['type'][] = [
  'ChannelCreated',
  'ChannelNameChanged',
  'ChannelDescriptionChanged',
  'ChannelPermissionChanged',
  'ChannelDeactivated',
  'ChannelReactivated',
  'ChannelFolderChanged',
  'ChannelTopicsPolicyChanged',
  'ChannelMessageRetentionDaysChanged',
  'DefaultChannelAdded',
  'DefaultChannelRemoved',
];
