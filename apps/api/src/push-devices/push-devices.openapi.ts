import { type AreaOpenApi, ENVELOPE_ONLY, int, object } from '../openapi/schema-helpers';

/** The push-devices area's response schemas (openapi/openapi-document.ts). */
export const pushDevicesOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/mobile_push/register': ENVELOPE_ONLY,
    'POST /api/v1/register_client_device': object({ device_id: int }),
    'POST /api/v1/remove_client_device': ENVELOPE_ONLY,
  },
};
