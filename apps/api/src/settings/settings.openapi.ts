import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The settings area's response schemas (openapi/openapi-document.ts). */
export const settingsOpenApi: AreaOpenApi = {
  responses: {
    'PATCH /api/v1/settings': ENVELOPE_ONLY,
  },
};
