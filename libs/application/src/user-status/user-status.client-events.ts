import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { UserStatusChanged } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import type { ClientEvent } from '../events/event-queue';
import { toRealm } from '../events/deliveries';
import { APP_CONFIG } from '../ports/tokens';
import { reactionTypeForClients } from '../server/version-fields';

/** do_update_user_status: the fields that changed, to everyone in the organization. */
@Injectable()
export class UserStatusClientEvents implements AreaClientEvents {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  clientEvents(): ClientEventMapperList {
    return {
      UserStatusChanged: (e: Recorded<UserStatusChanged>, c) => this.userStatus(e, c),
    };
  }

  private userStatus(e: Recorded<UserStatusChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const event: ClientEvent = { type: 'user_status', user_id: d.userId };
    if (d.statusText !== undefined) event.status_text = d.statusText;
    if (d.emojiName !== undefined) {
      event.emoji_name = d.emojiName;
      event.emoji_code = d.emojiCode ?? '';
      event.reaction_type = reactionTypeForClients(d.reactionType ?? '', this.config);
    }
    return toRealm(c, d.realmId, event);
  }
}
