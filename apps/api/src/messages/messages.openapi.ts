import { type AreaOpenApi, bool, ENVELOPE_ONLY, int, object, ref } from '../openapi/schema-helpers';

/** The messages area's response schemas (openapi/openapi-document.ts). */
export const messagesOpenApi: AreaOpenApi = {
  responses: {
    'POST /api/v1/messages': object({ id: int, automatic_new_visibility_policy: int }, ['id']),
    'PATCH /api/v1/messages/:message_id': object({ detached_uploads: { type: 'array', items: ref('AttachmentSummary') } }, []),
    'POST /api/v1/messages/flags/narrow': object(
      {
        processed_count: int,
        updated_count: int,
        first_processed_id: { type: ['integer', 'null'] },
        last_processed_id: { type: ['integer', 'null'] },
        found_oldest: bool,
        found_newest: bool,
        ignored_because_not_subscribed_channels: { type: 'array', items: int },
      },
      ['processed_count', 'updated_count', 'first_processed_id', 'last_processed_id', 'found_oldest', 'found_newest'],
    ),
    'POST /api/v1/mark_topic_as_read': ENVELOPE_ONLY,
    'POST /api/v1/mark_stream_as_read': ENVELOPE_ONLY,
  },
};
