import { Controller, Inject, Post } from '@nestjs/common';
import { CLIENT_EVENT_BUS, ChannelQueries, type ClientEventBusPort, SubscriptionQueries, UserQueries, UserSettingsQueries } from '@app/application';
import { DomainError } from '@app/domain';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { TypingDto } from './typing.dto';

/**
 * POST /typing (zerver/views/typing.py, zerver/actions/typing.py). Typing notifications are not
 * facts worth keeping: they go straight to the client-event bus (every API instance), never to
 * the log, and reach only active recipients with `receives_typing_notifications` on.
 */
@Controller('api/v1/typing')
export class TypingController {
  constructor(
    @Inject(CLIENT_EVENT_BUS) private readonly bus: ClientEventBusPort,
    private readonly users: UserQueries,
    private readonly settings: UserSettingsQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  @Post()
  @Summary('Tell the recipients of a conversation that the user started or stopped typing.')
  async typing(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: TypingDto) {
    const senderId = actor.userId!;
    const sender = await this.users.mustFindById(actor.realmId, senderId);
    const senderSettings = await this.settings.settingsOf(senderId);
    const senderDict = { user_id: sender.user_id, email: sender.email };
    const kind = params.type === 'channel' || params.type === 'stream' ? 'stream' : 'direct';

    if (kind === 'stream') {
      if (params.stream_id === undefined) throw new DomainError("Missing 'stream_id' argument");
      if (params.topic === undefined) throw new DomainError('Missing topic');
      if (!senderSettings.send_stream_typing_notifications) throw new DomainError('User has disabled typing notifications for channel messages');
      const { channel } = await this.channels.accessById(actor, params.stream_id);
      const subscribers = await this.subscriptions.subscriberIds(actor.realmId, channel.stream_id);
      const event = { type: 'typing', message_type: 'stream', op: params.op, sender: senderDict, stream_id: channel.stream_id, topic: params.topic };
      await this.publish(subscribers, event);
      return {};
    }

    if (params.to === undefined) throw new DomainError("Missing 'to' argument");
    if (params.to.length === 0) throw new DomainError("Empty 'to' list");
    if (!senderSettings.send_private_typing_notifications) throw new DomainError('User has disabled typing notifications for direct messages');
    const ids = [...new Set([...params.to, senderId])];
    const recipients = [];
    for (const id of ids) {
      const user = await this.users.byId(actor.realmId, id);
      if (!user) throw new DomainError(`Invalid user ID ${id}`);
      recipients.push(user);
    }
    const event = {
      type: 'typing',
      message_type: 'direct',
      op: params.op,
      sender: senderDict,
      recipients: recipients.map((u) => ({ user_id: u.user_id, email: u.email })),
    };
    await this.publish(recipients.filter((u) => u.is_active).map((u) => u.user_id), event);
    return {};
  }

  /** Only users with receives_typing_notifications on (do_send_typing_notification). */
  private async publish(userIds: number[], event: { type: string; [k: string]: unknown }): Promise<void> {
    const settings = await this.settings.settingsOfMany(userIds);
    const receiving = userIds.filter((id) => settings.get(id)?.receives_typing_notifications ?? true);
    if (receiving.length > 0) await this.bus.publish({ userIds: receiving, event });
  }
}
