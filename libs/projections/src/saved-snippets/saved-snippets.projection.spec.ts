import { recorded, replay, savedSnippetCreated, savedSnippetDeleted, savedSnippetEdited } from '@app/testing';
import { savedSnippetsProjection } from './saved-snippets.projection';

const after = (events: { type: string; data: object }[]) => replay(savedSnippetsProjection, recorded(events, 'saved_snippets-10'));

describe('savedSnippetsProjection', () => {
  it('stores a snippet in the shape of SavedSnippet.to_api_dict, with its owner', () =>
    expect(after([savedSnippetCreated(3, 'Welcome', '**Hi**', 10, '2026-01-02T03:04:05.900Z')]).get('3')).toEqual({
      id: 3, title: 'Welcome', content: '**Hi**', date_created: 1767323045, user_id: 10,
    }));

  it('follows edits and deletions', () => {
    const edited = after([savedSnippetCreated(3, 'A', 'B'), savedSnippetEdited(3, { oldTitle: 'A', newTitle: 'C', oldContent: 'B', newContent: 'D' })]);
    expect(edited.get('3')).toMatchObject({ title: 'C', content: 'D' });
    expect(after([savedSnippetCreated(3), savedSnippetDeleted(3)]).size).toBe(0);
  });

  it('ignores an edit of a snippet it never saw', () =>
    expect(after([savedSnippetEdited(3, { oldTitle: 'A', newTitle: 'C', oldContent: 'B', newContent: 'D' })]).size).toBe(0));
});
