import { type AreaOpenApi, int, object, str } from '../openapi/schema-helpers';

/** The uploads area's response schemas (openapi/openapi-document.ts). */
export const uploadsOpenApi: AreaOpenApi = {
  resources: {
    AttachmentSummary: object({
      id: int,
      name: str,
      path_id: str,
      size: int,
      create_time: int,
      message_ids: { type: 'array', items: int },
    }),
  },
  responses: {
    'POST /api/v1/user_uploads': object({ url: str, uri: str, filename: str }),
  },
};
