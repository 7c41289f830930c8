import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { type Actor, botEmailDomain, REPORT_MESSAGE_TYPES } from '@app/domain';
import { SystemGroupIds } from '../shared/system-group-ids';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { RealmQueries, realmGroupSettingsOf, realmMessagingSettingsOf } from './realm.queries';
import { APP_CONFIG } from '../ports/tokens';
import { passwordPolicy } from '../shared/password-policy';

/**
 * The organization settings this server does not let administrators change (yet), at Zulip's
 * defaults for a new organization (Realm.property_types), so clients that read them find them.
 */
const FIXED_REALM_PROPERTIES = {
  // Deprecated for message_edit_history_visibility_policy (feature level 358); still read by clients.
  allow_edit_history: true,
  message_edit_history_visibility_policy: 'all',
  avatar_changes_disabled: false,
  name_changes_disabled: false,
  default_code_block_language: '',
  default_language: 'en',
  digest_emails_enabled: false,
  digest_weekday: 1,
  emails_restricted_to_domains: false,
  disallow_disposable_email_addresses: true,
  enable_guest_user_indicator: true,
  enable_guest_user_dm_warning: true,
  enable_spectator_access: false,
  giphy_rating: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  jitsi_server_url: null,
  message_content_allowed_in_email_notifications: true,
  require_unique_names: false,
  send_channel_events_messages: true,
  send_welcome_emails: true,
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  org_type: 0,
  plan_type: 1,
  presence_disabled: false,
  is_zephyr_mirror_realm: false,
  email_auth_enabled: true,
  password_auth_enabled: true,
  push_notifications_enabled: false,
  push_notifications_enabled_end_timestamp: null,
  upload_quota_mib: null,
  icon_source: 'G',
  logo_source: 'D',
  night_logo_source: 'D',
  // No announcement channels are configured (-1: none).
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
  default_external_accounts: {},
  available_video_chat_providers: { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } },
} as const;

/** Realm.WILDCARD_MENTION_POLICY values of the system groups can_mention_many_users_group may name. */
const WILDCARD_MENTION_POLICY: Record<string, number> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

/**
 * realm_allow_edit_history: whether users may see messages' earlier versions (edit history and
 * the audit history's earlier contents). Fixed at Zulip's default until PATCH /realm accepts it.
 */
export const realmAllowsEditHistory = (): boolean => FIXED_REALM_PROPERTIES.allow_edit_history;

/** Server-level values that fetch_initial_state_data sends with the `realm` section. */
const SERVER_PROPERTIES = {
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  settings_send_digest_emails: false,
  server_generation: 0,
  zulip_plan_is_not_limited: true,
  upgrade_text_for_wide_organization_logo: '',
  server_inline_image_preview: true,
  server_inline_url_embed_preview: false,
  server_avatar_changes_disabled: false,
  server_name_changes_disabled: false,
  server_web_public_streams_enabled: false,
  server_needs_upgrade: false,
  giphy_rating_options: {
    disabled: { name: 'GIPHY integration disabled', id: 0 },
    y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
    g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
    pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
    'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
    r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
  },
  event_queue_longpoll_timeout_seconds: 90,
  server_jitsi_server_url: 'https://meet.jit.si',
  jitsi_server_url: 'https://meet.jit.si',
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 5000,
  server_typing_started_wait_period_milliseconds: 10000,
  // Zulip lists the thumbnail formats its image uploads come in (feature level 273); this server
  // makes no thumbnails (docs/uploads.md), so clients such as the mobile app ask for none.
  server_thumbnail_formats: [],
  // Realm.REPORT_MESSAGE_REASONS as {key, name} (feature level 435): the report types of POST /messages/{id}/report.
  server_report_message_types: REPORT_MESSAGE_TYPES,
} as const;

/**
 * `realm` (fetch_initial_state_data): the realm_* settings (those `realm` update events change,
 * and the fixed ones at Zulip's defaults), the organization's URLs and icons, and the server-level
 * values Zulip sends in this section (file size limits, typing and long-poll timing, …).
 * `realm_domains`, `default_stream_groups`, `onboarding_steps`, `video_calls`, `giphy`: present
 * and empty, as this server has none (`default_streams` is the channels area's,
 * `realm_playgrounds` the playgrounds area's).
 */
@Injectable()
export class RealmsRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  registerSections(): RegisterSection[] {
    return [
      { fetchType: 'realm', read: (actor) => this.realm(actor) },
      { fetchType: 'realm_domains', read: async () => ({ realm_domains: [] }) },
      { fetchType: 'default_stream_groups', read: async () => ({ realm_default_stream_groups: [] }) },
      { fetchType: 'onboarding_steps', read: async () => ({ onboarding_steps: [] }) },
      { fetchType: 'video_calls', read: async () => ({ has_zoom_token: false }) },
      { fetchType: 'giphy', read: async () => ({ giphy_api_key: '' }) },
    ];
  }

  private async realm(actor: Actor): Promise<Record<string, unknown>> {
    const realm = await this.realms.mustFindById(actor.realmId);
    const ids = await this.groupIds.forRealm(actor.realmId);
    const url = this.config.externalUrl;
    const out: Record<string, unknown> = { realm_name: realm.name, realm_description: realm.description };
    for (const [key, value] of Object.entries(FIXED_REALM_PROPERTIES)) out[`realm_${key}`] = value;
    const messaging = realmMessagingSettingsOf(realm);
    const groups = realmGroupSettingsOf(realm);
    for (const [key, value] of Object.entries(messaging)) out[`realm_${key}`] = value;
    for (const [key, group] of Object.entries(groups)) out[`realm_${key}`] = ids[group as keyof typeof ids];
    Object.assign(out, SERVER_PROPERTIES, {
      realm_uri: url,
      realm_url: url,
      realm_bot_domain: botEmailDomain(realm.string_id, url),
      realm_icon_url: `${url}/static/images/realm-icon.svg`,
      realm_logo_url: '',
      realm_night_logo_url: '',
      realm_date_created: realm.date_created,
      realm_authentication_methods: { Email: { enabled: true, available: true }, Dev: { enabled: this.config.env === 'development', available: true } },
      development_environment: this.config.env === 'development',
      password_min_length: passwordPolicy(this.config).minLength,
      password_min_guesses: passwordPolicy(this.config).minGuesses,
      server_emoji_data_url: `${url}/static/generated/emoji/emoji_api.json`,
      // The legacy forms of two group / policy settings, still sent and read by clients (the mobile app).
      realm_wildcard_mention_policy: WILDCARD_MENTION_POLICY[groups.can_mention_many_users_group] ?? 5,
      realm_mandatory_topics: messaging.topics_policy === 'disable_empty_topic',
    });
    return out;
  }
}
