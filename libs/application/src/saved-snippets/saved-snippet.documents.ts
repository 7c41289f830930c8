export const SAVED_SNIPPETS = 'saved_snippets';

/** A saved snippet as `GET /saved_snippets` returns it (SavedSnippet.to_api_dict). */
export type ApiSavedSnippet = { id: number; title: string; content: string; date_created: number };

/** The read model: the API's snippet and its owner. */
export type SavedSnippetDocument = ApiSavedSnippet & { user_id: number };

export const toApiSavedSnippet = ({ id, title, content, date_created }: SavedSnippetDocument): ApiSavedSnippet => ({ id, title, content, date_created });
