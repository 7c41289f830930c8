import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { SCHEDULED_MESSAGES, toApiScheduledMessage, type ApiScheduledMessage, type ScheduledMessageDocument } from './scheduled-message.documents';

/** Reads of the scheduled-messages read model (GET /scheduled_messages, /register, the boot re-arm). */
@Injectable()
export class ScheduledMessageQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /**
   * get_undelivered_scheduled_messages: the user's undelivered scheduled messages, failed ones
   * included, soonest first. Also the `scheduled_messages` section of `/register`.
   */
  async list(userId: number): Promise<ApiScheduledMessage[]> {
    const docs = await this.readStore.find<ScheduledMessageDocument>(SCHEDULED_MESSAGES, {
      where: { sender_id: userId, delivered: false },
      orderBy: [{ field: 'scheduled_delivery_timestamp', direction: 'asc' }, { field: 'scheduled_message_id', direction: 'asc' }],
    });
    return docs.map(toApiScheduledMessage);
  }

  byId(scheduledMessageId: number): Promise<ScheduledMessageDocument | null> {
    return this.readStore.get<ScheduledMessageDocument>(SCHEDULED_MESSAGES, String(scheduledMessageId));
  }

  /** What a delivery still has to do: undelivered and unfailed (claimed ones included, for recovery). */
  async awaitingDelivery(): Promise<ScheduledMessageDocument[]> {
    return this.readStore.find<ScheduledMessageDocument>(SCHEDULED_MESSAGES, {
      where: { delivered: false, failed: false },
      orderBy: [{ field: 'scheduled_delivery_timestamp', direction: 'asc' }, { field: 'scheduled_message_id', direction: 'asc' }],
    });
  }
}
