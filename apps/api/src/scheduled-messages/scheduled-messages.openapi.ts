import { type AreaOpenApi, int, object } from '../openapi/schema-helpers';

/** The scheduled-messages area's response schemas (openapi/openapi-document.ts). */
export const scheduledMessagesOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/scheduled_messages': object({ scheduled_message_id: int }),
  },
};
