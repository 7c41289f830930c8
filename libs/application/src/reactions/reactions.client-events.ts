import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { ReactionAdded, ReactionRemoved } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../events/client-event-registry';
import { MessageQueries } from '../messages/get-messages.queries';
import { APP_CONFIG, USER_MESSAGE_STORE } from '../ports/tokens';
import { reactionTypeForClients } from '../server/version-fields';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { UserQueries } from '../users/user.queries';

type ReactionData = ReactionAdded['data'] | ReactionRemoved['data'];

/** notify_reaction_update: one `reaction` event (op add / remove) to everyone who may see the message. */
@Injectable()
export class ReactionsClientEvents implements AreaClientEvents {
  constructor(
    private readonly messages: MessageQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly users: UserQueries,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      ReactionAdded: (e: Recorded<ReactionAdded>, c) => this.reaction('add', e.data, c),
      ReactionRemoved: (e: Recorded<ReactionRemoved>, c) => this.reaction('remove', e.data, c),
    };
  }

  private async reaction(op: 'add' | 'remove', d: ReactionData, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const [user, userIds] = await Promise.all([this.users.byId(d.realmId, d.userId), this.recipients(d, c)]);
    if (userIds.length === 0) return [];
    const event = {
      type: 'reaction',
      op,
      user_id: d.userId,
      // Zulip still sends this redundant object (notify_reaction_update's user_dict).
      user: { user_id: d.userId, email: user?.email ?? '', full_name: user?.full_name ?? '' },
      message_id: d.messageId,
      emoji_name: d.emojiName,
      emoji_code: d.emojiCode,
      reaction_type: reactionTypeForClients(d.reactionType, this.config),
    };
    return [{ userIds, event }];
  }

  /**
   * zerver/lib/message.py event_recipient_ids_for_action_on_messages, among users with a queue
   * here: a direct message's row holders; for a channel with protected history, its subscribers
   * holding a row; for a private channel with shared history, its subscribers; for a public
   * channel, its subscribers and every non-guest of the organization holding a row (historical
   * rows included: whoever reacted to or starred a message they were not sent).
   */
  private async recipients(d: ReactionData, c: ClientEventMapperContext): Promise<number[]> {
    const [doc] = await this.messages.documents([d.messageId]);
    if (!doc) return [];
    const withRows = async (userIds: number[]) => {
      const rows = await Promise.all(userIds.map(async (userId) => (await this.userMessages.flagsFor(userId, [d.messageId])).has(d.messageId)));
      return userIds.filter((_, i) => rows[i]);
    };
    if (doc.type === 'private') return withRows((doc.dm_user_ids ?? []).filter((id) => c.hasQueues(id)));
    const channel = await this.channels.byId(d.realmId, doc.stream_id!);
    if (!channel) return [];
    const subscribers = (await this.subscriptions.subscriberIds(d.realmId, channel.stream_id)).filter((id) => c.hasQueues(id));
    if (!channel.history_public_to_subscribers) return withRows(subscribers);
    if (channel.invite_only) return subscribers;
    // Only the queue holders of this process can receive anything: never the whole organization.
    const subscribed = new Set(subscribers);
    const others = [...c.usersWithQueues()].filter((id) => !subscribed.has(id));
    const holders = await withRows(others);
    const users = await Promise.all(holders.map((userId) => this.users.byId(d.realmId, userId)));
    return [...subscribers, ...holders.filter((_, i) => users[i] !== null && users[i]!.is_active && users[i]!.role_name !== 'guest')];
  }
}
