import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { DRAFTS, toApiDraft, type ApiDraft, type DraftDocument } from './draft.documents';

/** Reads of the drafts read model (for `GET /drafts` and, later, `/register`). */
@Injectable()
export class DraftQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** The user's drafts, most recently edited first (the newest draft first among equal times). */
  async list(userId: number): Promise<ApiDraft[]> {
    const docs = await this.readStore.find<DraftDocument>(DRAFTS, {
      where: { user_id: userId },
      orderBy: [{ field: 'last_edit_time', direction: 'desc' }, { field: 'id', direction: 'desc' }],
    });
    return docs.map(toApiDraft);
  }
}
