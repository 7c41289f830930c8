import type { Provider } from '@nestjs/common';
import { CreateSavedSnippetHandler } from './create-saved-snippet.handler';
import { DeleteSavedSnippetHandler } from './delete-saved-snippet.handler';
import { EditSavedSnippetHandler } from './edit-saved-snippet.handler';
import { SavedSnippetQueries } from './saved-snippet.queries';

/** The saved snippets area's handlers and queries, registered by ApplicationModule. */
export const SAVED_SNIPPETS_HANDLERS: Provider[] = [CreateSavedSnippetHandler, EditSavedSnippetHandler, DeleteSavedSnippetHandler];
export const SAVED_SNIPPETS_QUERIES: Provider[] = [SavedSnippetQueries];
