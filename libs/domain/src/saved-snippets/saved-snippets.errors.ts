import { DomainError, NotFoundError } from '../shared/domain-error';

/** do_edit_saved_snippet / do_delete_saved_snippet (ResourceNotFoundError, 404). */
export class SavedSnippetDoesNotExistError extends NotFoundError {
  constructor() {
    super('Saved snippet does not exist.');
  }
}

/**
 * The parameter checks of zerver/views/saved_snippets.py (StringConstraints(min_length=1,
 * max_length=…, strip_whitespace=True)), worded as typed_endpoint words them.
 */
export class InvalidSavedSnippetError extends DomainError {
  static blank = (field: 'title' | 'content') => new InvalidSavedSnippetError(`${field} cannot be blank`);
  static tooLong = (field: 'title' | 'content', limit: number) =>
    new InvalidSavedSnippetError(`${field} is too long (limit: ${limit} characters)`);
}
