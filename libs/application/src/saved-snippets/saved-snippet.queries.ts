import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { SAVED_SNIPPETS, toApiSavedSnippet, type ApiSavedSnippet, type SavedSnippetDocument } from './saved-snippet.documents';

/** Reads of the saved snippets read model (`GET /saved_snippets`, later `/register`). */
@Injectable()
export class SavedSnippetQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** The user's snippets, oldest first (ids increase with creation). */
  async list(userId: number): Promise<ApiSavedSnippet[]> {
    const docs = await this.readStore.find<SavedSnippetDocument>(SAVED_SNIPPETS, {
      where: { user_id: userId },
      orderBy: [{ field: 'id', direction: 'asc' }],
    });
    return docs.map(toApiSavedSnippet);
  }

  byId(savedSnippetId: number): Promise<SavedSnippetDocument | null> {
    return this.readStore.get<SavedSnippetDocument>(SAVED_SNIPPETS, String(savedSnippetId));
  }
}
