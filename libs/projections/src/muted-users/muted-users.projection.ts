import { MUTED_USER_EVENT_TYPES, type MutedUserEvent } from '@app/domain';
import { MUTED_USERS, type MutedUsersDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

/** Each user's mutes, as `/register` lists them (get_user_mutes), from `muted_users-<userId>`. */
export const mutedUsersProjection = defineProjection<MutedUsersDocument, MutedUserEvent>({
  name: 'muted_users',
  collection: { name: MUTED_USERS, fields: [{ name: 'user_id', type: 'number' }] },
  handles: MUTED_USER_EVENT_TYPES,
  idsOf: (event) => [String(event.data.userId)],
  evolve: (doc, e) => {
    const current = doc ?? { user_id: e.data.userId, muted_users: [] };
    const others = current.muted_users.filter((m) => m.id !== e.data.mutedUserId);
    switch (e.type) {
      case 'UserMuted':
        return { ...current, muted_users: [...others, { id: e.data.mutedUserId, timestamp: unixSeconds(e.data.at) }] };
      case 'UserUnmuted':
        return { ...current, muted_users: others };
    }
  },
});
