import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The bot-storage area's response schemas (openapi/openapi-document.ts). */
export const botStorageOpenApi: AreaOpenApi = {
  responses: {
    'DELETE /api/v1/bot_storage': ENVELOPE_ONLY,
  },
};
