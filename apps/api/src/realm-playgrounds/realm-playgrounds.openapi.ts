import { type AreaOpenApi, ENVELOPE_ONLY, int, object } from '../openapi/schema-helpers';

/** The realm-playgrounds area's response schemas (openapi/openapi-document.ts). */
export const realmPlaygroundsOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/realm/playgrounds': object({ id: int }),
    'DELETE /api/v1/realm/playgrounds/:playground_id': ENVELOPE_ONLY,
  },
};
