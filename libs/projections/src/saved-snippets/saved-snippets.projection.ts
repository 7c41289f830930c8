import { SAVED_SNIPPET_EVENT_TYPES, type SavedSnippetEvent } from '@app/domain';
import { SAVED_SNIPPETS, type SavedSnippetDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

/** Saved snippets in the shape of SavedSnippet.to_api_dict, from each user's `saved_snippets-<userId>` stream. */
export const savedSnippetsProjection = defineProjection<SavedSnippetDocument, SavedSnippetEvent>({
  name: 'saved_snippets',
  collection: {
    name: SAVED_SNIPPETS,
    fields: [
      { name: 'user_id', type: 'number' },
      { name: 'id', type: 'number', index: false },
    ],
    compoundIndexes: [['user_id', 'id']],
  },
  handles: SAVED_SNIPPET_EVENT_TYPES,
  idsOf: (event) => [String(event.data.savedSnippetId)],
  evolve: (doc, e) => {
    switch (e.type) {
      case 'SavedSnippetCreated':
        return { id: e.data.savedSnippetId, title: e.data.title, content: e.data.content, date_created: unixSeconds(e.data.at), user_id: e.data.userId };
      case 'SavedSnippetEdited':
        return doc ? { ...doc, title: e.data.newTitle, content: e.data.newContent } : doc;
      case 'SavedSnippetDeleted':
        return null;
    }
  },
});
