/**
 * do_update_user_status: what the request set (fields left out are unchanged). An empty
 * `statusText` clears the text; an empty `emojiName` (with code "" and unicode_emoji) clears the emoji.
 */
export type UserStatusChanged = {
  type: 'UserStatusChanged';
  data: {
    realmId: number;
    userId: number;
    statusText?: string;
    emojiName?: string;
    emojiCode?: string;
    reactionType?: string;
    actorId: number | null;
    at: string;
  };
};

export type UserStatusEvent = UserStatusChanged;
export const USER_STATUS_EVENT_TYPES: readonly UserStatusEvent['type'][] = ['UserStatusChanged'];
