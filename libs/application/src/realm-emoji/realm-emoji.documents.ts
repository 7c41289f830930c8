/** A custom emoji as Zulip's EmojiInfo (get_all_custom_emoji_for_realm) plus what serving its image needs. */
export type RealmEmojiDocument = {
  id: string;
  realm_id: number;
  name: string;
  source_url: string;
  /** A still image of an animated emoji; this server keeps the original only, so always null. */
  still_url: null;
  deactivated: boolean;
  author_id: number | null;
  file_name: string;
  content_type: string;
};

export type ApiRealmEmoji = Pick<RealmEmojiDocument, 'id' | 'name' | 'source_url' | 'still_url' | 'deactivated' | 'author_id'>;

export const REALM_EMOJI = 'realm_emoji';

/** Where an emoji image is kept in the blob store. */
export const emojiBlobKey = (realmId: number, fileName: string) => `emoji/${realmId}/${fileName}`;

/** RealmEmoji.PATH_ID_TEMPLATE under /user_avatars, as Zulip's local upload backend serves it. */
export const emojiSourceUrl = (realmId: number, fileName: string) => `/user_avatars/${realmId}/emoji/images/${fileName}`;
