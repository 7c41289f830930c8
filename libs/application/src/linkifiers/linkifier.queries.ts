import { Inject, Injectable } from '@nestjs/common';
import type { LinkifierFacts } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ApiLinkifier, formatLinkifier, type LinkifierDocument, LINKIFIERS } from './linkifier.documents';

/**
 * Reads of an organization's linkifiers (linkifiers_for_realm): ordered by `order`, then id. For
 * the messages area, `facts(realmId)` is what rendering and topic_links apply.
 */
@Injectable()
export class LinkifierQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  private async documents(realmId: number): Promise<LinkifierDocument[]> {
    const docs = await this.readStore.find<LinkifierDocument>(LINKIFIERS, { where: { realm_id: realmId } });
    return docs.sort((a, b) => a.order - b.order || a.id - b.id);
  }

  async list(realmId: number): Promise<ApiLinkifier[]> {
    return (await this.documents(realmId)).map(formatLinkifier);
  }

  async facts(realmId: number): Promise<LinkifierFacts[]> {
    return (await this.documents(realmId)).map((d) => ({ id: d.id, pattern: d.pattern, urlTemplate: d.url_template }));
  }
}
