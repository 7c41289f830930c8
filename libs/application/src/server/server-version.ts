/**
 * What this server tells clients about itself (GET /server_settings, POST /register).
 *
 * SVC_FEATURE_LEVEL follows the spec's meaning: level N promises the API of Zulip at feature
 * level N, as the spec describes it (its highest level is 494). What of Zulip's API at that level
 * this server deliberately does not implement is listed in docs/api-coverage.md ("Deliberately
 * absent"), so the claim is honest about its gaps. Clients switch to the newest variants of the
 * API from the level (zulip-terminal, the mobile apps and zulip-js read `zulip_feature_level`).
 *
 * SVC_VERSION is written as Zulip writes its versions ("<major>.<minor>" or "<major>.0-dev"),
 * which the clients parse (the mobile apps compare the major version; zulip-terminal shows it),
 * with this server's own release as a `+svc.<version>` suffix, which those parsers ignore.
 */
export const SVC_SERVER_RELEASE = '0.1.0';
export const SVC_VERSION = `12.0-dev+svc.${SVC_SERVER_RELEASE}`;
export const SVC_FEATURE_LEVEL = 494;
/** Equals SVC_VERSION for an unforked server (spec: svc_merge_base). */
export const SVC_MERGE_BASE = SVC_VERSION;

/** The R5 constants of POST /register. */
export const API_LIMITS = {
  max_message_length: 10000,
  max_topic_length: 60,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  realm_empty_topic_display_name: 'general chat',
} as const;
