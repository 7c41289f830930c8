/**
 * Success-response schemas of the endpoints the API specification describes
 * (`../shared/spec/team-chat-api.md`, "Endpoints"), keyed by `METHOD /api/v1/path` as the route is
 * declared. The document (openapi-document.ts) combines each with the success envelope; a route
 * without an entry answers the envelope with fields of its own (additionalProperties).
 * test/api/openapi.api-spec.ts checks that every spec endpoint has one, and validates real answers
 * against them. Other areas: add a row for a route whose answer you want described.
 */
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const object = (properties: Record<string, object>, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required });

/** Resources of the specification ("Resources and their fields"), as components. */
export const RESOURCE_SCHEMAS: Record<string, object> = {
  Draft: object({
    id: int,
    type: { enum: ['', 'stream', 'private'] },
    to: { type: 'array', items: int },
    topic: str,
    content: str,
    timestamp: int,
  }),
  ChannelFolder: object({
    id: int,
    name: str,
    order: int,
    date_created: { type: ['integer', 'null'] },
    creator_id: { type: ['integer', 'null'] },
    description: str,
    rendered_description: str,
    is_archived: bool,
  }),
  AttachmentSummary: object({
    id: int,
    name: str,
    path_id: str,
    size: int,
    create_time: int,
    message_ids: { type: 'array', items: int },
  }),
};

/** The success envelope alone (R2, R4): no fields of its own. */
const ENVELOPE_ONLY = { type: 'object' };

export const RESPONSE_SCHEMAS: Record<string, object> = {
  'POST /api/v1/messages': object({ id: int, automatic_new_visibility_policy: int }, ['id']),
  'POST /api/v1/scheduled_messages': object({ scheduled_message_id: int }),
  'PATCH /api/v1/messages/:message_id': object({ detached_uploads: { type: 'array', items: ref('AttachmentSummary') } }, []),
  'PATCH /api/v1/settings': ENVELOPE_ONLY,
  'POST /api/v1/users/me/subscriptions/properties': ENVELOPE_ONLY,
  'PATCH /api/v1/users/me/subscriptions/:stream_id': ENVELOPE_ONLY,
  'POST /api/v1/channel_folders/create': object({ channel_folder_id: int }),
  'GET /api/v1/channel_folders': object({ channel_folders: { type: 'array', items: ref('ChannelFolder') } }),
  'POST /api/v1/realm/profile_fields': object({ id: int }),
  'POST /api/v1/users/:user_id/status': ENVELOPE_ONLY,
  'POST /api/v1/mobile_push/register': ENVELOPE_ONLY,
  'POST /api/v1/register_client_device': object({ device_id: int }),
  'POST /api/v1/remove_client_device': ENVELOPE_ONLY,
  'POST /api/v1/messages/flags/narrow': object(
    {
      processed_count: int,
      updated_count: int,
      first_processed_id: { type: ['integer', 'null'] },
      last_processed_id: { type: ['integer', 'null'] },
      found_oldest: bool,
      found_newest: bool,
      ignored_because_not_subscribed_channels: { type: 'array', items: int },
    },
    ['processed_count', 'updated_count', 'first_processed_id', 'last_processed_id', 'found_oldest', 'found_newest'],
  ),
  'POST /api/v1/mark_topic_as_read': ENVELOPE_ONLY,
  'POST /api/v1/mark_stream_as_read': ENVELOPE_ONLY,
  'PATCH /api/v1/saved_snippets/:saved_snippet_id': ENVELOPE_ONLY,
  'POST /api/v1/dev_fetch_api_key': object({ api_key: str, email: str, user_id: int }),
  'DELETE /api/v1/bot_storage': ENVELOPE_ONLY,
  'POST /api/v1/submessage': ENVELOPE_ONLY,
  'GET /api/v1/drafts': object({ count: int, drafts: { type: 'array', items: ref('Draft') } }),
  'DELETE /api/v1/users/me/muted_users/:muted_user_id': ENVELOPE_ONLY,
  'DELETE /api/v1/realm/emoji/:emoji_name': ENVELOPE_ONLY,
  'POST /api/v1/user_uploads': object({ url: str, uri: str, filename: str }),
  'POST /api/v1/default_streams': ENVELOPE_ONLY,
  'DELETE /api/v1/default_streams': ENVELOPE_ONLY,
  'POST /api/v1/realm/playgrounds': object({ id: int }),
  'DELETE /api/v1/realm/playgrounds/:playground_id': ENVELOPE_ONLY,
  'GET /api/v1/server_settings': object(
    {
      authentication_methods: { type: 'object', additionalProperties: bool },
      external_authentication_methods: {
        type: 'array',
        items: object({ name: str, display_name: str, display_icon: { type: ['string', 'null'] }, login_url: str, signup_url: str }),
      },
      svc_feature_level: int,
      svc_version: str,
      svc_merge_base: str,
      push_notifications_enabled: bool,
      is_incompatible: bool,
      email_auth_enabled: bool,
      require_email_format_usernames: bool,
      realm_uri: str,
      realm_url: str,
      realm_name: str,
      realm_icon: str,
      realm_description: str,
      realm_web_public_access_enabled: bool,
    },
    ['authentication_methods', 'external_authentication_methods', 'svc_feature_level', 'svc_version', 'svc_merge_base', 'push_notifications_enabled', 'is_incompatible', 'email_auth_enabled', 'require_email_format_usernames'],
  ),
};
