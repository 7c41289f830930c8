import type { SavedSnippetEvent } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

export const savedSnippetCreated = (savedSnippetId = 1, title = 'Welcome', content = 'Hi!', userId = 10, at = AT): SavedSnippetEvent => ({
  type: 'SavedSnippetCreated', data: { userId, savedSnippetId, title, content, at },
});

export const savedSnippetEdited = (
  savedSnippetId: number,
  change: { oldTitle: string; newTitle: string; oldContent: string; newContent: string },
  userId = 10,
): SavedSnippetEvent => ({ type: 'SavedSnippetEdited', data: { userId, savedSnippetId, ...change, at: AT } });

export const savedSnippetDeleted = (savedSnippetId = 1, userId = 10): SavedSnippetEvent => ({
  type: 'SavedSnippetDeleted', data: { userId, savedSnippetId, at: AT },
});
