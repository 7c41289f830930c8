import { type AreaOpenApi, ENVELOPE_ONLY } from '../openapi/schema-helpers';

/** The subscription-properties area's response schemas (openapi/openapi-document.ts). */
export const subscriptionPropertiesOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/users/me/subscriptions/properties': ENVELOPE_ONLY,
    'PATCH /api/v1/users/me/subscriptions/:stream_id': ENVELOPE_ONLY,
  },
};
