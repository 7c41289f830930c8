/** AuditLogEventType.SAVED_SNIPPET_CREATED (do_create_saved_snippet). */
export type SavedSnippetCreated = {
  type: 'SavedSnippetCreated';
  data: { userId: number; savedSnippetId: number; title: string; content: string; at: string };
};

/** do_edit_saved_snippet: old and new values of what changed (an unchanged field keeps old = new). */
export type SavedSnippetEdited = {
  type: 'SavedSnippetEdited';
  data: {
    userId: number;
    savedSnippetId: number;
    oldTitle: string;
    newTitle: string;
    oldContent: string;
    newContent: string;
    at: string;
  };
};

/** do_delete_saved_snippet. */
export type SavedSnippetDeleted = {
  type: 'SavedSnippetDeleted';
  data: { userId: number; savedSnippetId: number; at: string };
};

export type SavedSnippetEvent = SavedSnippetCreated | SavedSnippetEdited | SavedSnippetDeleted;

export const SAVED_SNIPPET_EVENT_TYPES: readonly SavedSnippetEvent['type'][] = [
  'SavedSnippetCreated',
  'SavedSnippetEdited',
  'SavedSnippetDeleted',
];
