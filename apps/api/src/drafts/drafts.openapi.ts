import { type AreaOpenApi, int, object, ref, str } from '../openapi/schema-helpers';

/** The drafts area's response schemas (openapi/openapi-document.ts). */
export const draftsOpenApi: AreaOpenApi = {
  resources: {
    Draft: object({
      id: int,
      type: { enum: ['', 'stream', 'private'] },
      to: { type: 'array', items: int },
      topic: str,
      content: str,
      timestamp: int,
    }),
  },
  responses: {
    'GET /api/v1/drafts': object({ count: int, drafts: { type: 'array', items: ref('Draft') } }),
  },
};
