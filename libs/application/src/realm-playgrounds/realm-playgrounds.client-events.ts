import { Injectable } from '@nestjs/common';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';
import type { RecordedEvent } from '../ports/event-store.port';
import { RealmPlaygroundQueries } from './realm-playground.queries';

type PlaygroundsChanged = RecordedEvent<string, { realmId: number }>;

/** notify_realm_playgrounds: `realm_playgrounds` with the whole list, to every active user. */
@Injectable()
export class RealmPlaygroundsClientEvents implements AreaClientEvents {
  constructor(private readonly playgrounds: RealmPlaygroundQueries) {}

  clientEvents(): ClientEventMapperList {
    const changed = (e: PlaygroundsChanged, c: ClientEventMapperContext) => this.changed(e.data.realmId, c);
    return { RealmPlaygroundAdded: changed, RealmPlaygroundRemoved: changed };
  }

  private async changed(realmId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'realm_playgrounds', realm_playgrounds: await this.playgrounds.list(realmId) });
  }
}
