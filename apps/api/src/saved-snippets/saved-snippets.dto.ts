import { MAX_SAVED_SNIPPET_CONTENT_LENGTH, MAX_SAVED_SNIPPET_TITLE_LENGTH } from '@app/domain';
import { RequiredStringParam } from '../http/params/param.decorators';

/** POST /saved_snippets (create_saved_snippet): both stripped, neither blank. */
export class CreateSavedSnippetDto {
  @RequiredStringParam({ maxLength: MAX_SAVED_SNIPPET_TITLE_LENGTH, description: 'The title.' })
  title!: string;

  @RequiredStringParam({ maxLength: MAX_SAVED_SNIPPET_CONTENT_LENGTH, description: 'The Markdown source to insert into a message.' })
  content!: string;
}

/** PATCH /saved_snippets/{saved_snippet_id} (edit_saved_snippet): either may be left out. */
export class EditSavedSnippetDto {
  @RequiredStringParam({ optional: true, maxLength: MAX_SAVED_SNIPPET_TITLE_LENGTH, description: 'A new title.' })
  title?: string;

  @RequiredStringParam({ optional: true, maxLength: MAX_SAVED_SNIPPET_CONTENT_LENGTH, description: 'New content.' })
  content?: string;
}
