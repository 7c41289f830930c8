import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/domain';
import type { BusMessage } from '../events/client-event-bus';
import { ChannelQueries } from '../channels/channel.queries';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { ownUserId } from '../shared/own-user-id';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { UserQueries } from '../users/user.queries';
import { SendTypingNotificationCommand } from './send-typing-notification.command';
import { typingConversation, typingReceivers } from './typing-notification.rules';

/**
 * do_send_typing_notification / do_send_stream_typing_notification (zerver/actions/typing.py):
 * a channel's notification goes to its subscribers once the sender may access the channel; a
 * direct one to its active recipients (the sender included), each of whom must exist.
 */
@CommandHandler(SendTypingNotificationCommand)
export class SendTypingNotificationHandler implements ICommandHandler<SendTypingNotificationCommand> {
  constructor(
    private readonly users: UserQueries,
    private readonly settings: UserSettingsQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  async execute({ context: { actor }, request }: SendTypingNotificationCommand): Promise<{ notification: BusMessage | null }> {
    const senderId = ownUserId(actor);
    const sender = await this.users.mustFindById(actor.realmId, senderId);
    const conversation = typingConversation(senderId, request, await this.settings.settingsOf(senderId));
    const senderDict = { user_id: sender.user_id, email: sender.email };

    if (conversation.kind === 'stream') {
      const { channel } = await this.channels.accessById(actor, conversation.streamId);
      const subscribers = await this.subscriptions.subscriberIds(actor.realmId, channel.stream_id);
      return this.notification(subscribers, { type: 'typing', message_type: 'stream', op: request.op, sender: senderDict, stream_id: channel.stream_id, topic: conversation.topic });
    }

    const recipients = [];
    for (const id of conversation.userIds) {
      const user = await this.users.byId(actor.realmId, id);
      if (!user) throw new DomainError(`Invalid user ID ${id}`);
      recipients.push(user);
    }
    const event = {
      type: 'typing',
      message_type: 'direct',
      op: request.op,
      sender: senderDict,
      recipients: recipients.map((u) => ({ user_id: u.user_id, email: u.email })),
    };
    return this.notification(recipients.filter((u) => u.is_active).map((u) => u.user_id), event);
  }

  private async notification(userIds: number[], event: BusMessage['event']): Promise<{ notification: BusMessage | null }> {
    const receiving = typingReceivers(userIds, await this.settings.settingsOfMany(userIds));
    return { notification: receiving.length > 0 ? { userIds: receiving, event } : null };
  }
}
