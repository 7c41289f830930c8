import { Injectable } from '@nestjs/common';
import type { RealmEmojiAdded, RealmEmojiRemoved } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';
import { RealmEmojiQueries } from './realm-emoji.queries';

/** notify_realm_emoji: the whole (current) emoji dict to everyone in the organization. */
@Injectable()
export class RealmEmojiClientEvents implements AreaClientEvents {
  constructor(private readonly realmEmoji: RealmEmojiQueries) {}

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      RealmEmojiAdded: (e: Recorded<RealmEmojiAdded>, c) => this.changed(e.data.realmId, c),
      RealmEmojiRemoved: (e: Recorded<RealmEmojiRemoved>, c) => this.changed(e.data.realmId, c),
    };
  }

  private async changed(realmId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'realm_emoji', op: 'update', realm_emoji: await this.realmEmoji.list(realmId) });
  }
}
