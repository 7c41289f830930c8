/** AuditLogEventType.REALM_EMOJI_ADDED (check_add_realm_emoji). The image is already in the blob store. */
export type RealmEmojiAdded = {
  type: 'RealmEmojiAdded';
  data: {
    realmId: number;
    emojiId: number;
    name: string;
    /** The stored image's file name (`<hash><ext>`), under `<realmId>/emoji/images/`. */
    fileName: string;
    contentType: string;
    authorId: number | null;
    at: string;
  };
};

/** AuditLogEventType.REALM_EMOJI_REMOVED (do_remove_realm_emoji): deactivated, kept for old messages and reactions. */
export type RealmEmojiRemoved = {
  type: 'RealmEmojiRemoved';
  data: { realmId: number; emojiId: number; name: string; actorId: number | null; at: string };
};

export type RealmEmojiEvent = RealmEmojiAdded | RealmEmojiRemoved;

export const REALM_EMOJI_EVENT_TYPES: readonly RealmEmojiEvent['type'][] = ['RealmEmojiAdded', 'RealmEmojiRemoved'];
