import { Inject, Injectable } from '@nestjs/common';
import { type Actor, NoSuchUserError, VISIBILITY_POLICY, type VisibilityPolicy } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { USER_TOPICS, type UserTopicDocument, userTopicDocumentId } from './message.documents';

/** A user_topic object of the API (POST /register `user_topics`). */
export type UserTopicObject = { stream_id: number; topic_name: string; last_updated: number; visibility_policy: number };

/**
 * Topic visibility policies (Zulip's UserTopic) as the user_topics read model holds them: for the
 * narrows, unread counts, `/register` and POST /user_topics' current value.
 */
@Injectable()
export class UserTopicQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly channels: ChannelQueries,
  ) {}

  /** Every policy the user has set (rows with INHERIT do not exist). */
  policiesOf(userId: number): Promise<UserTopicDocument[]> {
    return this.readStore.find<UserTopicDocument>(USER_TOPICS, { where: { user_id: userId } });
  }

  /** The user's policy for one topic (`topic` as stored: the empty topic is ''); INHERIT without a row. */
  async policyOf(userId: number, streamId: number, topic: string): Promise<VisibilityPolicy> {
    const current = await this.readStore.get<UserTopicDocument>(USER_TOPICS, userTopicDocumentId(userId, streamId, topic));
    return (current?.visibility_policy ?? VISIBILITY_POLICY.INHERIT) as VisibilityPolicy;
  }

  /** POST /register's `user_topics`. */
  async userTopics(actor: Actor): Promise<UserTopicObject[]> {
    if (actor.userId === null) throw new NoSuchUserError();
    const docs = await this.policiesOf(actor.userId);
    return docs
      .sort((a, b) => a.stream_id - b.stream_id || (a.topic_key < b.topic_key ? -1 : a.topic_key > b.topic_key ? 1 : 0))
      .map((d) => ({ stream_id: d.stream_id, topic_name: d.topic_name, last_updated: d.last_updated, visibility_policy: d.visibility_policy }));
  }

  /**
   * get_topic_mutes: `[channel name, topic, last updated]` of each muted topic of a channel that
   * exists and is not archived (the legacy `muted_topics` of /register and its event).
   */
  async mutedTopics(actor: Actor): Promise<[string, string, number][]> {
    if (actor.userId === null) return [];
    const muted = (await this.policiesOf(actor.userId)).filter((t) => t.visibility_policy === VISIBILITY_POLICY.MUTED);
    if (muted.length === 0) return [];
    const channels = new Map((await this.channels.byIds(actor.realmId, [...new Set(muted.map((t) => t.stream_id))])).map((c) => [c.stream_id, c]));
    return muted
      .sort((a, b) => a.stream_id - b.stream_id || (a.topic_key < b.topic_key ? -1 : a.topic_key > b.topic_key ? 1 : 0))
      .flatMap((t) => {
        const channel = channels.get(t.stream_id);
        return channel && !channel.is_archived ? [[channel.name, t.topic_name, t.last_updated] as [string, string, number]] : [];
      });
  }
}
