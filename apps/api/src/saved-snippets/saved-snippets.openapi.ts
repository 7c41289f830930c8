import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The saved-snippets area's response schemas (openapi/openapi-document.ts). */
export const savedSnippetsOpenApi: AreaOpenApi = {
  responses: {
    'PATCH /api/v1/saved_snippets/:saved_snippet_id': ENVELOPE_ONLY,
  },
};
