import { Injectable } from '@nestjs/common';
import type { RealmEmojiAdded, RealmEmojiRemoved } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';
import { RealmEmojiQueries } from './realm-emoji.queries';

/**
 * `realm_emoji` events to everyone in the organization (zerver/actions/realm_emoji.py). Since
 * feature level 491 an addition is `add` (the new emoji) and a deactivation `update_one`
 * (`emoji_id`, `data: {deactivated: true}`) for clients with the `individual_emoji_changes`
 * capability; the others get the legacy `update` with the whole emoji dict. Both shapes travel in
 * one event (as Zulip's InternalRealmEmoji*Event); EventQueue gives each client its own.
 */
@Injectable()
export class RealmEmojiClientEvents implements AreaClientEvents {
  constructor(private readonly realmEmoji: RealmEmojiQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      RealmEmojiAdded: async (e: Recorded<RealmEmojiAdded>, c) => {
        const all = await this.realmEmoji.list(e.data.realmId);
        return toRealm(c, e.data.realmId, { type: 'realm_emoji', op: 'add', emoji: all[String(e.data.emojiId)], realm_emoji: all });
      },
      RealmEmojiRemoved: async (e: Recorded<RealmEmojiRemoved>, c) => {
        const all = await this.realmEmoji.list(e.data.realmId);
        return toRealm(c, e.data.realmId, { type: 'realm_emoji', op: 'update_one', emoji_id: String(e.data.emojiId), data: { deactivated: true }, realm_emoji: all });
      },
    };
  }
}
