import { Injectable } from '@nestjs/common';
import type { SubscriptionPropertyChanged } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';

/**
 * do_change_subscription_property: `subscription` `update` to the subscriber. The domain already
 * records `is_muted` and `in_home_view` as two events (feature level 139's two client events), so
 * each maps to one update.
 */
@Injectable()
export class SubscriptionPropertiesClientEvents implements AreaClientEvents {
  clientEvents(): ClientEventMapperList {
    return {
      SubscriptionPropertyChanged: (e: Recorded<SubscriptionPropertyChanged>) =>
        toUser(e.data.userId, { type: 'subscription', op: 'update', stream_id: e.data.channelId, property: e.data.property, value: e.data.newValue }),
    };
  }
}
