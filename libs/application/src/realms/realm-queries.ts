import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { REALMS, type RealmDocument } from './realm.documents';

/** Reads of the organizations read model. */
@Injectable()
export class RealmQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  byId(realmId: number): Promise<RealmDocument | null> {
    return this.readStore.get<RealmDocument>(REALMS, String(realmId));
  }

  async byStringId(stringId: string): Promise<RealmDocument | null> {
    const [realm] = await this.readStore.find<RealmDocument>(REALMS, { where: { string_id: stringId }, limit: 1 });
    return realm ?? null;
  }

  async mustFindByStringId(stringId: string): Promise<RealmDocument> {
    const realm = await this.byStringId(stringId);
    if (!realm) throw new NotFoundError(`No organization '${stringId}'`);
    return realm;
  }

  list(): Promise<RealmDocument[]> {
    return this.readStore.find<RealmDocument>(REALMS, { orderBy: [{ field: 'id', direction: 'asc' }] });
  }
}
