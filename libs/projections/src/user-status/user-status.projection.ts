import { USER_STATUS_EVENT_TYPES, type UserStatusChanged } from '@app/domain';
import { USER_STATUS, type UserStatusDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/** Each user's status (update_user_status: only what an update names changes). */
export const userStatusProjection = defineProjection<UserStatusDocument, UserStatusChanged>({
  name: 'user_status',
  // /register lists an organization's statuses.
  collection: { name: USER_STATUS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: USER_STATUS_EVENT_TYPES,
  idsOf: (e) => [String(e.data.userId)],
  evolve: (doc, { data: d }) => {
    const current: UserStatusDocument = doc ?? { user_id: d.userId, realm_id: d.realmId, status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' };
    return {
      ...current,
      ...(d.statusText !== undefined ? { status_text: d.statusText } : {}),
      ...(d.emojiName !== undefined ? { emoji_name: d.emojiName, emoji_code: d.emojiCode ?? '', reaction_type: d.reactionType ?? 'unicode_emoji' } : {}),
    };
  },
});
