import { deciderSpec, savedSnippetCreated, savedSnippetDeleted, savedSnippetEdited } from '@app/testing';
import {
  InvalidSavedSnippetError,
  SavedSnippetDoesNotExistError,
  savedSnippetsDecider,
  type SavedSnippetsCommand,
} from '@app/domain';

const given = deciderSpec(savedSnippetsDecider);
const NOW = '2026-02-03T04:05:06.000Z';

const create = (title: string, content: string, savedSnippetId = 3): SavedSnippetsCommand => ({
  type: 'CreateSavedSnippet', data: { userId: 10, now: NOW, savedSnippetId, title, content },
});
const edit = (savedSnippetId: number, change: { title?: string; content?: string }): SavedSnippetsCommand => ({
  type: 'EditSavedSnippet', data: { userId: 10, now: NOW, savedSnippetId, ...change },
});
const remove = (savedSnippetId: number): SavedSnippetsCommand => ({ type: 'DeleteSavedSnippet', data: { userId: 10, now: NOW, savedSnippetId } });

describe('savedSnippetsDecider', () => {
  describe('CreateSavedSnippet', () => {
    it('creates a snippet with the title and content stripped', () =>
      given([]).when(create('  Welcome message \n', '\n**Welcome** to the organization.  ')).then([
        { type: 'SavedSnippetCreated', data: { userId: 10, savedSnippetId: 3, title: 'Welcome message', content: '**Welcome** to the organization.', at: NOW } },
      ]));

    it('refuses a blank title or content', () => {
      given([]).when(create(' \t ', 'x')).thenThrows(InvalidSavedSnippetError, 'title cannot be blank');
      given([]).when(create('x', '\n')).thenThrows(InvalidSavedSnippetError, 'content cannot be blank');
    });

    it('limits the title to 60 and the content to 10,000 code points, after stripping', () => {
      given([]).when(create('A'.repeat(61), 'x')).thenThrows(InvalidSavedSnippetError, 'title is too long (limit: 60 characters)');
      given([]).when(create('x', 'c'.repeat(10_001))).thenThrows(InvalidSavedSnippetError, 'content is too long (limit: 10000 characters)');
      expect(given([]).when(create(` ${'🙂'.repeat(60)} `, 'c'.repeat(10_000))).events()).toHaveLength(1);
    });

    it('checks the title before the content', () => given([]).when(create('', '')).thenThrows(InvalidSavedSnippetError, 'title cannot be blank'));
  });

  describe('EditSavedSnippet', () => {
    const welcome = savedSnippetCreated(3, 'Welcome message', '**Welcome** to the organization.');

    it('changes the title only, keeping the content', () =>
      given([welcome]).when(edit(3, { title: ' New title ' })).then([{
        type: 'SavedSnippetEdited',
        data: {
          userId: 10, savedSnippetId: 3, oldTitle: 'Welcome message', newTitle: 'New title',
          oldContent: '**Welcome** to the organization.', newContent: '**Welcome** to the organization.', at: NOW,
        },
      }]));

    it('changes the content after an earlier edit', () =>
      given([welcome, savedSnippetEdited(3, { oldTitle: 'Welcome message', newTitle: 'T2', oldContent: '**Welcome** to the organization.', newContent: 'C2' })])
        .when(edit(3, { content: 'C3' }))
        .thenMatches([{ data: { oldTitle: 'T2', newTitle: 'T2', oldContent: 'C2', newContent: 'C3' } }]));

    it('succeeds without doing anything when nothing is given, even for an unknown id (no-op requests succeed)', () => {
      given([welcome]).when(edit(3, {})).thenNothingHappened();
      given([]).when(edit(10, {})).thenNothingHappened();
    });

    it('does nothing when the values are the same', () =>
      given([welcome]).when(edit(3, { title: 'Welcome message', content: '**Welcome** to the organization.' })).thenNothingHappened());

    it('answers 404 for an unknown or deleted snippet', () => {
      given([]).when(edit(10, { content: 'New content' })).thenThrows(SavedSnippetDoesNotExistError, 'Saved snippet does not exist.');
      given([welcome, savedSnippetDeleted(3)]).when(edit(3, { title: 'x' })).thenThrows(SavedSnippetDoesNotExistError);
    });

    it('checks the new values before looking the snippet up', () => {
      given([]).when(edit(10, { title: 'A'.repeat(61) })).thenThrows(InvalidSavedSnippetError, 'title is too long (limit: 60 characters)');
      given([welcome]).when(edit(3, { content: '  ' })).thenThrows(InvalidSavedSnippetError, 'content cannot be blank');
    });
  });

  describe('DeleteSavedSnippet', () => {
    it('deletes an existing snippet', () =>
      given([savedSnippetCreated(3)]).when(remove(3)).then([{ type: 'SavedSnippetDeleted', data: { userId: 10, savedSnippetId: 3, at: NOW } }]));

    it('answers 404 for an unknown or already deleted snippet', () => {
      given([]).when(remove(3)).thenThrows(SavedSnippetDoesNotExistError, 'Saved snippet does not exist.');
      given([savedSnippetCreated(3), savedSnippetDeleted(3)]).when(remove(3)).thenThrows(SavedSnippetDoesNotExistError);
    });
  });
});
