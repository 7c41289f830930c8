import { REALM_EMOJI_EVENT_TYPES, type RealmEmojiEvent } from '@app/domain';
import { emojiSourceUrl, REALM_EMOJI, type RealmEmojiDocument, type RecordedEvent } from '@app/application';
import { defineProjection } from '../shared/projection';

const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as RealmEmojiEvent;

/** Custom emoji as Zulip's EmojiInfo, from `realm_emoji-<realmId>`; deactivated emoji stay, marked. */
export const realmEmojiProjection = defineProjection<RealmEmojiDocument>({
  name: 'realm_emoji',
  collection: { name: REALM_EMOJI, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: REALM_EMOJI_EVENT_TYPES,
  idsOf: (event) => [String(asEvent(event).data.emojiId)],
  evolve: (doc, event) => {
    const e = asEvent(event);
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
