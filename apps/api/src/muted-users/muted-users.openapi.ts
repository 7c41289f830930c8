import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The muted-users area's response schemas (openapi/openapi-document.ts). */
export const mutedUsersOpenApi: AreaOpenApi = {
  responses: {
    'DELETE /api/v1/users/me/muted_users/:muted_user_id': ENVELOPE_ONLY,
  },
};
