import { Injectable } from '@nestjs/common';
import type {
  ScheduledMessageCreated,
  ScheduledMessageDeleted,
  ScheduledMessageDelivered,
  ScheduledMessageDeliveryFailed,
  ScheduledMessageEdited,
} from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';
import { toApiScheduledMessage } from './scheduled-message.documents';
import { ScheduledMessageQueries } from './scheduled-message.queries';

/** `scheduled_messages` events (zerver/actions/scheduled_messages.py) to the sender. */
@Injectable()
export class ScheduledMessagesClientEvents implements AreaClientEvents {
  constructor(private readonly scheduledMessages: ScheduledMessageQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      ScheduledMessageCreated: async (e: Recorded<ScheduledMessageCreated>) => {
        const doc = await this.scheduledMessages.byId(e.data.scheduledMessageId);
        return doc ? toUser(e.data.senderId, { type: 'scheduled_messages', op: 'add', scheduled_messages: [toApiScheduledMessage(doc)] }) : [];
      },
      ScheduledMessageEdited: (e: Recorded<ScheduledMessageEdited>) => this.updated(e.data.scheduledMessageId, e.data.senderId),
      ScheduledMessageDeliveryFailed: (e: Recorded<ScheduledMessageDeliveryFailed>) => this.updated(e.data.scheduledMessageId, e.data.senderId),
      ScheduledMessageDeleted: (e: Recorded<ScheduledMessageDeleted>) => this.removed(e.data.scheduledMessageId, e.data.senderId),
      // A delivered scheduled message leaves the list (try_deliver_one_scheduled_message).
      ScheduledMessageDelivered: (e: Recorded<ScheduledMessageDelivered>) => this.removed(e.data.scheduledMessageId, e.data.senderId),
    };
  }

  private async updated(id: number, senderId: number): Promise<ClientEventDelivery[]> {
    const doc = await this.scheduledMessages.byId(id);
    if (!doc || doc.delivered) return [];
    return toUser(senderId, { type: 'scheduled_messages', op: 'update', scheduled_message: toApiScheduledMessage(doc) });
  }

  private removed(id: number, senderId: number): ClientEventDelivery[] {
    return toUser(senderId, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
  }
}
