import { type AreaOpenApi, bool, ENVELOPE_ONLY, int, object, str } from '../openapi/schema-helpers';

const nullableInt = { oneOf: [int, { type: 'null' }] };

/** do_get_invites_controlled_by_user's two shapes. */
const invite = {
  oneOf: [
    object({ email: str, invited_by_user_id: int, invited: int, expiry_date: nullableInt, id: int, invited_as: int, is_multiuse: bool, notify_referrer_on_join: bool }),
    object({ invited_by_user_id: int, invited: int, expiry_date: nullableInt, id: int, link_url: str, invited_as: int, is_multiuse: bool }),
  ],
};

/** The invitations area's response schemas (openapi/openapi-document.ts). */
export const invitationsOpenApi: AreaOpenApi = {
  responses: {
    'GET /api/v1/invites': object({ invites: { type: 'array', items: invite } }),
    'POST /api/v1/invites': ENVELOPE_ONLY,
    'POST /api/v1/invites/multiuse': object({ invite_link: str }),
    'DELETE /api/v1/invites/multiuse/:invite_id': ENVELOPE_ONLY,
    'DELETE /api/v1/invites/:invite_id': ENVELOPE_ONLY,
    'POST /api/v1/invites/:invite_id/resend': ENVELOPE_ONLY,
  },
};
