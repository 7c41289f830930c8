import { type AreaOpenApi, int, object } from '../openapi/schema-helpers';

/** The custom-profile-fields area's response schemas (openapi/openapi-document.ts). */
export const customProfileFieldsOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/realm/profile_fields': object({ id: int }),
  },
};
