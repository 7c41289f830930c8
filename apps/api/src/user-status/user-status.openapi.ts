import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The user-status area's response schemas (openapi/openapi-document.ts). */
export const userStatusOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/users/:user_id/status': ENVELOPE_ONLY,
  },
};
