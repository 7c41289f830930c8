import { Injectable } from '@nestjs/common';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';
import type { RecordedEvent } from '../ports/event-store.port';
import { LinkifierQueries } from './linkifier.queries';

type LinkifiersChanged = RecordedEvent<string, { realmId: number }>;

/**
 * notify_linkifiers: `realm_linkifiers` with the whole ordered list, to every active user. Queues
 * registered without the `linkifier_url_template` capability do not get it (EventQueue). The
 * legacy `realm_filters` event is no longer sent by Zulip.
 */
@Injectable()
export class LinkifiersClientEvents implements AreaClientEvents {
  constructor(private readonly linkifiers: LinkifierQueries) {}

  clientEvents(): ClientEventMapperList {
    const changed = (e: LinkifiersChanged, c: ClientEventMapperContext) => this.changed(e.data.realmId, c);
    return { LinkifierAdded: changed, LinkifierChanged: changed, LinkifierRemoved: changed, LinkifiersReordered: changed };
  }

  private async changed(realmId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'realm_linkifiers', realm_linkifiers: await this.linkifiers.list(realmId) });
  }
}
