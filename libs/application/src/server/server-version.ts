/**
 * What this server tells clients about itself (GET /server_settings, POST /register).
 *
 * SVC_FEATURE_LEVEL follows the spec's meaning: level N promises every API change introduced
 * before N. It is raised only when every feature up to the new level that the spec describes is
 * implemented; docs/api-coverage.md lists what is. Until the messaging core lands the honest value
 * is 0 (the baseline), whatever individual later features already work.
 */
export const SVC_VERSION = '0.1.0';
export const SVC_FEATURE_LEVEL = 0;
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
