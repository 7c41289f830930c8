import { Inject, Injectable } from '@nestjs/common';
import { type Actor, displayTopic, renderMessage } from '@app/domain';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import { ChannelTopics } from '../channels/channel-topics';
import type { ChannelDocument, ChannelTopic } from '../channels/channel.documents';
import { USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { canReadChannelHistory } from './message-access';

/**
 * GET /users/me/{stream_id}/topics from the message index (get_topic_history_for_stream): every
 * topic when the user may read the channel's history, else only topics of messages they received.
 */
@Injectable()
export class MessageChannelTopics extends ChannelTopics {
  constructor(
    @Inject(USER_MESSAGE_STORE) private readonly store: UserMessageStorePort,
    private readonly subscriptions: SubscriptionQueries,
  ) {
    super();
  }

  async topicsFor(actor: Actor, channel: ChannelDocument, options: { allowEmptyTopicName: boolean }): Promise<ChannelTopic[]> {
    const subscribed = await this.subscriptions.isSubscribed(actor.userId, channel.stream_id);
    const wholeHistory = actor.role === 'operator' || canReadChannelHistory(actor.role, channel, subscribed);
    const topics = await this.store.topicsOf(channel.realm_id, channel.stream_id, wholeHistory || actor.userId === null ? undefined : actor.userId);
    return topics.map(({ topic, maxId }) => ({ name: displayTopic(topic, options.allowEmptyTopicName), max_id: maxId }));
  }
}

/** Channel descriptions rendered with the message renderer (render_stream_description), safely, without mentions. */
@Injectable()
export class MarkdownChannelDescriptionRenderer extends ChannelDescriptionRenderer {
  async render(description: string): Promise<string> {
    if (description.trim() === '') return '';
    return renderMessage(description, { users: [], channels: [], emptyTopicDisplayName: 'general chat' }).html;
  }
}
