import { Injectable } from '@nestjs/common';
import { type SavedSnippetCreated, type SavedSnippetDeleted, type SavedSnippetEdited, unixSeconds } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';
import { toApiSavedSnippet } from './saved-snippet.documents';
import { SavedSnippetQueries } from './saved-snippet.queries';

/** do_create_saved_snippet, do_edit_saved_snippet, do_delete_saved_snippet: `saved_snippets` events to the owner. */
@Injectable()
export class SavedSnippetsClientEvents implements AreaClientEvents {
  constructor(private readonly snippets: SavedSnippetQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      SavedSnippetCreated: (e: Recorded<SavedSnippetCreated>) =>
        toUser(e.data.userId, {
          type: 'saved_snippets',
          op: 'add',
          saved_snippet: { id: e.data.savedSnippetId, title: e.data.title, content: e.data.content, date_created: unixSeconds(e.data.at) },
        }),
      SavedSnippetEdited: (e: Recorded<SavedSnippetEdited>) => this.edited(e),
      SavedSnippetDeleted: (e: Recorded<SavedSnippetDeleted>) => toUser(e.data.userId, { type: 'saved_snippets', op: 'remove', saved_snippet_id: e.data.savedSnippetId }),
    };
  }

  /** The whole snippet as it now is. */
  private async edited(e: Recorded<SavedSnippetEdited>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const doc = await this.snippets.byId(d.savedSnippetId);
    const snippet = doc ? { ...toApiSavedSnippet(doc), title: d.newTitle, content: d.newContent } : { id: d.savedSnippetId, title: d.newTitle, content: d.newContent };
    return toUser(d.userId, { type: 'saved_snippets', op: 'update', saved_snippet: snippet });
  }
}
