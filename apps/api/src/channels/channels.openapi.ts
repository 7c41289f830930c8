import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The channels area's response schemas (openapi/openapi-document.ts). */
export const channelsOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/default_streams': ENVELOPE_ONLY,
    'DELETE /api/v1/default_streams': ENVELOPE_ONLY,
  },
};
