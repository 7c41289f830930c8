import { DRAFT_EVENT_TYPES, type DraftEvent, type StoredDraft } from '@app/domain';
import { apiDraftOf, DRAFTS, type DraftDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

const toDocument = (userId: number, d: StoredDraft): DraftDocument => ({
  ...apiDraftOf(d),
  user_id: userId,
  last_edit_time: d.lastEditTime,
});

/** Drafts in the shape of Draft.to_dict, one document per draft, from each user's `drafts-<userId>` stream. */
export const draftsProjection = defineProjection<DraftDocument, DraftEvent>({
  name: 'drafts',
  collection: {
    name: DRAFTS,
    // GET /drafts: one user's drafts, most recently edited first.
    fields: [
      { name: 'user_id', type: 'number' },
      { name: 'last_edit_time', type: 'number', index: false },
      { name: 'id', type: 'number', index: false },
    ],
    compoundIndexes: [['user_id', 'last_edit_time']],
  },
  handles: DRAFT_EVENT_TYPES,
  idsOf: (e) => {
    switch (e.type) {
      case 'DraftsCreated':
        return e.data.drafts.map((d) => String(d.draftId));
      case 'DraftEdited':
        return [String(e.data.draftId)];
      case 'DraftsDeleted':
        return e.data.draftIds.map(String);
    }
  },
  evolve: (doc, e, id) => {
    switch (e.type) {
      case 'DraftsCreated': {
        const draft = e.data.drafts.find((d) => String(d.draftId) === id);
        return draft ? toDocument(e.data.userId, draft) : doc;
      }
      case 'DraftEdited':
        return doc ? toDocument(e.data.userId, e.data.new) : doc;
      case 'DraftsDeleted':
        return null;
    }
  },
});
