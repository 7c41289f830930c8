import { MUTED_USER_EVENT_TYPES, type MutedUserEvent } from '@app/domain';
import { MUTED_USERS, type MutedUsersDocument, type RecordedEvent } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as MutedUserEvent;

/** Each user's mutes, as `/register` lists them (get_user_mutes), from `muted_users-<userId>`. */
export const mutedUsersProjection = defineProjection<MutedUsersDocument>({
  name: 'muted_users',
  collection: { name: MUTED_USERS, fields: [{ name: 'user_id', type: 'number' }] },
  handles: MUTED_USER_EVENT_TYPES,
  idsOf: (event) => [String(asEvent(event).data.userId)],
  evolve: (doc, event) => {
    const e = asEvent(event);
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
