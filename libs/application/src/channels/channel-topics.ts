import type { Actor } from '@app/domain';
import type { ChannelDocument, ChannelTopic } from './channel.documents';

/**
 * `GET /users/me/{stream_id}/topics` after access checks (zerver/lib/topic.py
 * get_topic_history_for_stream): the topics of a channel the user may read, newest first, each
 * with its latest message id the user can see (all of history when `history_public_to_subscribers`,
 * otherwise only messages the user received).
 *
 * Messages belong to the messaging core: it binds its implementation, which reads its topics read
 * model, to this token (in its descriptor, messages.area.ts).
 */
export abstract class ChannelTopics {
  abstract topicsFor(actor: Actor, channel: ChannelDocument, options: { allowEmptyTopicName: boolean }): Promise<ChannelTopic[]>;
}
