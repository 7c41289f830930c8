import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/domain';
import { RealmQueries, type RealmDocument } from '@app/application';

/**
 * The organization this server serves. One organization per server: the first one created.
 * (Zulip picks the realm by subdomain; a single-organization server needs no subdomains.)
 */
@Injectable()
export class RealmContext {
  private realmId: number | undefined;

  constructor(private readonly realms: RealmQueries) {}

  /**
   * The organization's id, for authentication, which reads the organization itself (through its
   * cache) right after: once known, answered without a read (organizations are never removed;
   * a read-model rebuild keeps their ids).
   */
  async currentId(): Promise<number> {
    return this.realmId ?? (await this.current()).id;
  }

  /** The organization's id once known (after the first currentId or current), else undefined; no read. */
  knownId(): number | undefined {
    return this.realmId;
  }

  async current(): Promise<RealmDocument> {
    if (this.realmId !== undefined) {
      const realm = await this.realms.cachedById(this.realmId);
      if (realm) return realm;
    }
    const [first] = await this.realms.list();
    if (!first) throw new DomainError('This organization does not exist yet; an operator must create it.', 'BAD_REQUEST', 404);
    this.realmId = first.id;
    return first;
  }
}
