/**
 * Every personal setting `PATCH /settings` changes, with its type, Zulip's default and the values
 * it allows (zerver/models/users.py UserBaseSettings: property_types and the *_CHOICES lists;
 * zerver/views/user_settings.py json_change_settings for the string choices).
 */
export type SettingValue = boolean | number | string;

export type SettingSpec =
  | { type: 'bool'; default: boolean }
  | { type: 'int'; default: number; choices?: readonly number[] }
  | { type: 'string'; default: string; choices?: readonly string[] };

type BoolSpec = Extract<SettingSpec, { type: 'bool' }>;
type IntSpec = Extract<SettingSpec, { type: 'int' }>;
type TextSpec = Extract<SettingSpec, { type: 'string' }>;
const bool = (value: boolean): BoolSpec => ({ type: 'bool', default: value });
const int = (value: number, choices?: readonly number[]): IntSpec => ({ type: 'int', default: value, ...(choices ? { choices } : {}) });
const text = (value: string, choices?: readonly string[]): TextSpec => ({ type: 'string', default: value, ...(choices ? { choices } : {}) });

/** UserBaseSettings.EMOJISET_CHOICES. */
export const EMOJISETS = ['google', 'twitter', 'text', 'google-blob'] as const;
/** The spec's `recent`, `inbox`, `all_messages`, plus `recent_topics`, Zulip's older spelling of `recent`. */
export const WEB_HOME_VIEWS = ['recent', 'recent_topics', 'inbox', 'all_messages'] as const;
export const WEB_ANIMATE_IMAGE_PREVIEWS = ['always', 'on_hover', 'never'] as const;
/** ResolvedTopicNoticeAutoReadPolicyEnum, by name as the API sends it. */
export const RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES = ['always', 'except_followed', 'never'] as const;

const ONE_TO_THREE = [1, 2, 3] as const;
const ONE_TO_FOUR = [1, 2, 3, 4] as const;

/** Settings in the order Zulip's model declares them. `timezone` is handled apart (see TIMEZONE_SETTING). */
export const USER_SETTINGS = {
  enter_sends: bool(false),
  left_side_userlist: bool(false),
  default_language: text('en'),
  web_home_view: text('inbox', WEB_HOME_VIEWS),
  web_escape_navigates_to_home_view: bool(true),
  fluid_layout_width: bool(false),
  high_contrast_mode: bool(false),
  translate_emoticons: bool(false),
  display_emoji_reaction_users: bool(true),
  twenty_four_hour_time: bool(false),
  starred_message_counts: bool(true),
  web_suggest_update_timezone: bool(true),
  color_scheme: int(1, ONE_TO_THREE), // automatic, dark, light
  web_font_size_px: int(16),
  web_line_height_percent: int(140),
  web_animate_image_previews: text('on_hover', WEB_ANIMATE_IMAGE_PREVIEWS),
  demote_inactive_streams: int(1, ONE_TO_THREE), // automatic, always, never
  web_mark_read_on_scroll_policy: int(1, ONE_TO_THREE), // always, conversation views only, never
  // Zulip's code accepts 3 (list of topics) too, though the spec's list of allowed values omits it.
  web_channel_default_view: int(1, ONE_TO_FOUR),
  emojiset: text('google', EMOJISETS),
  user_list_style: int(3, ONE_TO_THREE), // compact, with status, with avatar and status
  web_stream_unreads_count_display_policy: int(2, ONE_TO_THREE), // all, unmuted, none
  web_left_sidebar_unreads_count_summary: bool(true),
  web_inbox_show_channel_folders: bool(true),
  web_left_sidebar_show_channel_folders: bool(true),
  web_navigate_to_sent_message: bool(true),
  hide_ai_features: bool(false),
  email_notifications_batching_period_seconds: int(120),
  enable_stream_desktop_notifications: bool(false),
  enable_stream_email_notifications: bool(false),
  enable_stream_push_notifications: bool(false),
  enable_stream_audible_notifications: bool(false),
  notification_sound: text('zulip'),
  wildcard_mentions_notify: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  enable_desktop_notifications: bool(true),
  pm_content_in_desktop_notifications: bool(true),
  enable_sounds: bool(true),
  enable_offline_email_notifications: bool(true),
  message_content_in_email_notifications: bool(true),
  enable_offline_push_notifications: bool(true),
  enable_online_push_notifications: bool(true),
  desktop_icon_count_display: int(1, ONE_TO_FOUR),
  enable_digest_emails: bool(true),
  enable_login_emails: bool(true),
  enable_marketing_emails: bool(true),
  presence_enabled: bool(true),
  realm_name_in_email_notifications_policy: int(1, ONE_TO_THREE),
  automatically_follow_topics_policy: int(3, ONE_TO_FOUR),
  automatically_unmute_topics_in_muted_streams_policy: int(2, ONE_TO_FOUR),
  automatically_follow_topics_where_mentioned: bool(true),
  resolved_topic_notice_auto_read_policy: text('except_followed', RESOLVED_TOPIC_NOTICE_AUTO_READ_POLICIES),
  enable_drafts_synchronization: bool(true),
  send_stream_typing_notifications: bool(true),
  send_private_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  allow_private_data_export: bool(false),
  receives_typing_notifications: bool(true),
  email_address_visibility: int(1, [1, 2, 3, 4, 5]), // everyone, members, admins, nobody, moderators
} as const satisfies Record<string, SettingSpec>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];

/** The time zone is a setting too (do_change_user_setting "timezone"), but its default is the account's. */
export const TIMEZONE_SETTING = 'timezone';
/** Anything a UserSettingChanged event may name. */
export type SettingProperty = UserSettingName | typeof TIMEZONE_SETTING;

export const isUserSettingName = (name: string): name is UserSettingName => Object.prototype.hasOwnProperty.call(USER_SETTINGS, name);

/** Every setting at its default, the time zone as given (the account's, set when it was created). */
type ValueOf<S> = S extends BoolSpec ? boolean : S extends IntSpec ? number : string;
export type UserSettingValues = { [K in UserSettingName]: ValueOf<(typeof USER_SETTINGS)[K]> } & { timezone: string };

export function defaultUserSettings(timezone = ''): UserSettingValues {
  // Built once: readers of many users' settings (a send's missed-message check) call this per user.
  DEFAULT_USER_SETTING_VALUES ??= Object.fromEntries(USER_SETTING_NAMES.map((name) => [name, USER_SETTINGS[name].default])) as Omit<UserSettingValues, 'timezone'>;
  return { ...DEFAULT_USER_SETTING_VALUES, timezone } as UserSettingValues;
}
let DEFAULT_USER_SETTING_VALUES: Omit<UserSettingValues, 'timezone'> | undefined;

/**
 * UserBaseSettings.SECURITY_SENSITIVE_USER_SETTINGS: administrators may not change these for other
 * users (nor, beyond Zulip's list, the account fields and the time zone: see checkSettableForOthers).
 */
export const SECURITY_SENSITIVE_USER_SETTINGS: ReadonlySet<string> = new Set([
  'allow_private_data_export',
  'email_address_visibility',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'presence_enabled',
  'send_private_typing_notifications',
  'send_read_receipts',
  'send_stream_typing_notifications',
]);
