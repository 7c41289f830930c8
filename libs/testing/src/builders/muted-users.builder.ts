import type { MutedUserEvent } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

export const userMuted = (mutedUserId: number, userId = 10, at = AT): MutedUserEvent => ({ type: 'UserMuted', data: { userId, mutedUserId, at } });
export const userUnmuted = (mutedUserId: number, userId = 10, at = AT): MutedUserEvent => ({ type: 'UserUnmuted', data: { userId, mutedUserId, at } });
