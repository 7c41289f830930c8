import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The submessages area's response schemas (openapi/openapi-document.ts). */
export const submessagesOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/submessage': ENVELOPE_ONLY,
  },
};
