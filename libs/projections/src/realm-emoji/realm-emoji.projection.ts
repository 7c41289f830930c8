import { REALM_EMOJI_EVENT_TYPES, type RealmEmojiEvent } from '@app/domain';
import { emojiSourceUrl, REALM_EMOJI, type RealmEmojiDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/** Custom emoji as Zulip's EmojiInfo, from `realm_emoji-<realmId>`; deactivated emoji stay, marked. */
export const realmEmojiProjection = defineProjection<RealmEmojiDocument, RealmEmojiEvent>({
  name: 'realm_emoji',
  collection: { name: REALM_EMOJI, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: REALM_EMOJI_EVENT_TYPES,
  idsOf: (event) => [String(event.data.emojiId)],
  evolve: (doc, e) => {
    if (e.type === 'RealmEmojiAdded') {
      const d = e.data;
      return {
        id: String(d.emojiId), realm_id: d.realmId, name: d.name, source_url: emojiSourceUrl(d.realmId, d.fileName), still_url: null,
        deactivated: false, author_id: d.authorId, file_name: d.fileName, content_type: d.contentType,
      };
    }
    return doc && { ...doc, deactivated: true };
  },
});
