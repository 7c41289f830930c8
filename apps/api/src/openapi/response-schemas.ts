/**
 * Success-response schemas of the endpoints the API specification describes
 * (`../shared/spec/team-chat-api.md`, "Endpoints"), keyed by `METHOD /api/v1/path` as the route is
 * declared. The document (openapi-document.ts) combines each with the success envelope; a route
 * without an entry answers the envelope with fields of its own (additionalProperties).
 * test/api/openapi.api-spec.ts checks that every spec endpoint has one, and validates real answers
 * against them. An area declares its own in `<area>/<area>.openapi.ts` (API_AREAS, ../areas.ts);
 * the routes of no area (authentication, server settings) are here.
 */
import { API_AREAS } from '../areas';
import { bool, int, object, str } from './schema-helpers';

const areas = Object.values(API_AREAS).map((area) => area.openApi ?? {});

/** Resources of the specification ("Resources and their fields"), as components. */
export const RESOURCE_SCHEMAS: Record<string, object> = Object.assign({}, ...areas.map((area) => area.resources ?? {}));

/** Routes of no area. */
const SERVER_RESPONSE_SCHEMAS: Record<string, object> = {
  'POST /api/v1/dev_fetch_api_key': object({ api_key: str, email: str, user_id: int }),
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

export const RESPONSE_SCHEMAS: Record<string, object> = Object.assign({}, ...areas.map((area) => area.responses ?? {}), SERVER_RESPONSE_SCHEMAS);
