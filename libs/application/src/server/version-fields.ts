import { SVC_FEATURE_LEVEL, SVC_MERGE_BASE, SVC_VERSION } from './server-version';

/**
 * The version fields of GET /server_settings and POST /register. The spec writes them `svc_*`;
 * the official clients read `zulip_*` (the Python bindings refuse a server without
 * `zulip_version`), so both spellings are sent unless ZULIP_ALIASES is off.
 */
export function versionFields(options: { zulipAliases: boolean }) {
  const fields = { svc_version: SVC_VERSION, svc_feature_level: SVC_FEATURE_LEVEL, svc_merge_base: SVC_MERGE_BASE };
  if (!options.zulipAliases) return fields;
  return { ...fields, zulip_version: SVC_VERSION, zulip_feature_level: SVC_FEATURE_LEVEL, zulip_merge_base: SVC_MERGE_BASE };
}

/** Input spellings: `zulip_extra_emoji` is accepted wherever the spec says `svc_extra_emoji`. */
export const normalizeReactionType = (value: string): string => (value === 'zulip_extra_emoji' ? 'svc_extra_emoji' : value);

/**
 * Output spelling of a `reaction_type` (reactions in message objects, `reaction` events, user
 * statuses in `/register`, `GET /users/{id}/status` and `user_status` events). The spec's
 * `svc_extra_emoji` is stored; with ZULIP_ALIASES on it is sent as Zulip's `zulip_extra_emoji`,
 * because clients decode the value strictly (zulip-flutter's `ReactionType` enum throws on an
 * unknown value, so one such reaction would make a whole message list unreadable). Unlike the
 * `zulip_*` keys, a value cannot be sent twice: the alias replaces it.
 */
export const reactionTypeForClients = (value: string, options: { zulipAliases: boolean }): string =>
  options.zulipAliases && value === 'svc_extra_emoji' ? 'zulip_extra_emoji' : value;
