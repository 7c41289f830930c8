import type { Decider } from '../shared/decider';
import { SavedSnippetDoesNotExistError } from './saved-snippets.errors';
import type { SavedSnippetEvent } from './saved-snippets.events';
import { checkSavedSnippetField } from './saved-snippets.rules';

type Meta = { userId: number; now: string };

/** `POST /saved_snippets`: the id comes from the `saved_snippet` sequence. */
export type CreateSavedSnippet = { type: 'CreateSavedSnippet'; data: Meta & { savedSnippetId: number; title: string; content: string } };
/** `PATCH /saved_snippets/{id}`: either field may be left out. */
export type EditSavedSnippet = { type: 'EditSavedSnippet'; data: Meta & { savedSnippetId: number; title?: string; content?: string } };
/** `DELETE /saved_snippets/{id}`. */
export type DeleteSavedSnippet = { type: 'DeleteSavedSnippet'; data: Meta & { savedSnippetId: number } };

export type SavedSnippetsCommand = CreateSavedSnippet | EditSavedSnippet | DeleteSavedSnippet;

export type SavedSnippetState = { title: string; content: string };
export type SavedSnippetsState = { snippets: Record<number, SavedSnippetState> };

const mustExist = (state: SavedSnippetsState, id: number): SavedSnippetState => {
  const snippet = state.snippets[id];
  if (!snippet) throw new SavedSnippetDoesNotExistError();
  return snippet;
};

/** The saved snippets of one user (stream `saved_snippets-<userId>`). */
export const savedSnippetsDecider: Decider<SavedSnippetsCommand, SavedSnippetEvent, SavedSnippetsState> = {
  snapshot: { name: 'saved-snippets', version: 1 },
  initialState: () => ({ snippets: {} }),

  decide: (command, state) => {
    const { userId, now: at, savedSnippetId } = command.data;
    switch (command.type) {
      case 'CreateSavedSnippet': {
        const title = checkSavedSnippetField('title', command.data.title);
        const content = checkSavedSnippetField('content', command.data.content);
        if (state.snippets[savedSnippetId]) throw new Error(`saved snippet id ${savedSnippetId} is already used`);
        return [{ type: 'SavedSnippetCreated', data: { userId, savedSnippetId, title, content, at } }];
      }
      case 'EditSavedSnippet': {
        const { title, content } = command.data;
        // edit_saved_snippet: nothing to change succeeds at once, before the snippet is even looked up.
        if (title === undefined && content === undefined) return [];
        // The parameters are checked before the lookup, as typed_endpoint checks them.
        const newTitle = title === undefined ? undefined : checkSavedSnippetField('title', title);
        const newContent = content === undefined ? undefined : checkSavedSnippetField('content', content);
        const old = mustExist(state, savedSnippetId);
        const next = { title: newTitle ?? old.title, content: newContent ?? old.content };
        if (next.title === old.title && next.content === old.content) return [];
        return [{
          type: 'SavedSnippetEdited',
          data: { userId, savedSnippetId, oldTitle: old.title, newTitle: next.title, oldContent: old.content, newContent: next.content, at },
        }];
      }
      case 'DeleteSavedSnippet':
        mustExist(state, savedSnippetId);
        return [{ type: 'SavedSnippetDeleted', data: { userId, savedSnippetId, at } }];
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'SavedSnippetCreated':
        return { snippets: { ...state.snippets, [event.data.savedSnippetId]: { title: event.data.title, content: event.data.content } } };
      case 'SavedSnippetEdited':
        return state.snippets[event.data.savedSnippetId]
          ? { snippets: { ...state.snippets, [event.data.savedSnippetId]: { title: event.data.newTitle, content: event.data.newContent } } }
          : state;
      case 'SavedSnippetDeleted': {
        const snippets = { ...state.snippets };
        delete snippets[event.data.savedSnippetId];
        return { snippets };
      }
      default:
        return state;
    }
  },
};
