import { SAVED_SNIPPET_EVENT_TYPES, savedSnippetsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { SavedSnippetsClientEvents } from './saved-snippets.client-events';
import { SavedSnippetsRegisterSections } from './saved-snippets.register';
import type { Provider } from '@nestjs/common';
import { CreateSavedSnippetHandler } from './create-saved-snippet.handler';
import { DeleteSavedSnippetHandler } from './delete-saved-snippet.handler';
import { EditSavedSnippetHandler } from './edit-saved-snippet.handler';
import { SavedSnippetQueries } from './saved-snippet.queries';

const handlers: Provider[] = [CreateSavedSnippetHandler, EditSavedSnippetHandler, DeleteSavedSnippetHandler];
const queries: Provider[] = [SavedSnippetQueries];

/** A user's saved snippets. */
export const savedSnippetsArea = defineArea({
  name: 'saved-snippets',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: SavedSnippetsClientEvents,
  registerSections: SavedSnippetsRegisterSections,
  deciders: [savedSnippetsDecider],
  events: SAVED_SNIPPET_EVENT_TYPES,
  idSequences: [{ sequence: 'saved_snippet', fields: ['savedSnippetId'] }],
});
