import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The realm-emoji area's response schemas (openapi/openapi-document.ts). */
export const realmEmojiOpenApi: AreaOpenApi = {
  responses: {
    'DELETE /api/v1/realm/emoji/:emoji_name': ENVELOPE_ONLY,
  },
};
