import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ApiRealmPlayground, formatRealmPlayground, type RealmPlaygroundDocument, REALM_PLAYGROUNDS } from './realm-playground.documents';

/** Reads of an organization's code playgrounds (get_realm_playgrounds), in the order they were added. */
@Injectable()
export class RealmPlaygroundQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  async list(realmId: number): Promise<ApiRealmPlayground[]> {
    const docs = await this.readStore.find<RealmPlaygroundDocument>(REALM_PLAYGROUNDS, { where: { realm_id: realmId } });
    return docs.sort((a, b) => a.id - b.id).map(formatRealmPlayground);
  }
}
