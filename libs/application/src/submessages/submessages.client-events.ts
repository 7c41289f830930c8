import { Injectable } from '@nestjs/common';
import type { SubmessageAdded } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { MessageAccess } from '../messages/message-access';

/**
 * do_add_submessage: one `submessage` event to every user holding a row for the message (its
 * UserMessage rows, historical ones included), among the users with a queue here. The widget
 * submessage a message is sent with arrives inside the `message` event instead.
 */
@Injectable()
export class SubmessagesClientEvents implements AreaClientEvents {
  constructor(private readonly access: MessageAccess) {}

  clientEvents(): ClientEventMapperList {
    return {
      SubmessageAdded: async (e: Recorded<SubmessageAdded>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> => {
        const d = e.data;
        const candidates = [...c.usersWithQueues()];
        if (candidates.length === 0) return [];
        const userIds = await this.access.rowHolders(d.messageId, candidates);
        if (userIds.length === 0) return [];
        const event = { type: 'submessage', msg_type: d.msgType, message_id: d.messageId, submessage_id: d.submessageId, sender_id: d.senderId, content: d.content };
        return [{ userIds, event }];
      },
    };
  }
}
