import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  checkUserTopicChange,
  InvalidChannelIdError,
  NoSuchUserError,
  type SetUserTopicVisibilityPolicy,
  userTopicsDecider,
  userTopicsStream,
  VISIBILITY_POLICY,
  type VisibilityPolicy,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel-queries';
import type { ClockPort } from '../ports/clock.port';
import type { ReadStorePort } from '../ports/read-store.port';
import { CLOCK, READ_STORE } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { USER_TOPICS, type UserTopicDocument, userTopicDocumentId } from './message.documents';

/** A user_topic object of the API (POST /register `user_topics`). */
export type UserTopicObject = { stream_id: number; topic_name: string; last_updated: number; visibility_policy: number };

/**
 * Topic visibility policies (Zulip's UserTopic): POST /user_topics
 * (zerver/views/user_topics.py update_user_topic, do_set_user_topic_visibility_policy) and the
 * reads the narrows and unread counts need.
 */
@Injectable()
export class UserTopicsService {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly projections: ProjectionWaiter,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly runner: DeciderRunner,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  /** Every policy the user has set (rows with INHERIT do not exist). */
  policiesOf(userId: number): Promise<UserTopicDocument[]> {
    return this.readStore.find<UserTopicDocument>(USER_TOPICS, { where: { user_id: userId } });
  }

  /** POST /register's `user_topics`. */
  async userTopics(actor: Actor): Promise<UserTopicObject[]> {
    const docs = await this.policiesOf(this.userId(actor));
    return docs
      .sort((a, b) => a.stream_id - b.stream_id || (a.topic_key < b.topic_key ? -1 : a.topic_key > b.topic_key ? 1 : 0))
      .map((d) => ({ stream_id: d.stream_id, topic_name: d.topic_name, last_updated: d.last_updated, visibility_policy: d.visibility_policy }));
  }

  /** get_topic_mutes: [channel name, topic, last updated] of each muted topic of a channel that still exists (the legacy `muted_topics`). */
  async mutedTopics(actor: Actor): Promise<[string, string, number][]> {
    if (actor.userId === null) return [];
    const muted = (await this.userTopics(actor)).filter((t) => t.visibility_policy === VISIBILITY_POLICY.MUTED);
    const channels = new Map((await this.channels.byIds(actor.realmId, [...new Set(muted.map((t) => t.stream_id))])).map((c) => [c.stream_id, c]));
    return muted.flatMap((t) => {
      const channel = channels.get(t.stream_id);
      return channel ? [[channel.name, t.topic_name, t.last_updated] as [string, string, number]] : [];
    });
  }

  /**
   * update_user_topic: parameters first (topic length, policy), then the channel: setting a
   * policy needs access to the channel (access_stream_by_id, "Invalid channel ID"); removing one
   * (INHERIT) only needs the channel to exist in the organization
   * (access_stream_to_remove_visibility_policy_by_id), so a user can still unmute a topic of a
   * channel they lost access to.
   */
  async setVisibilityPolicy(actor: Actor, params: { streamId: number; topic: string; visibilityPolicy: number }): Promise<void> {
    const userId = this.userId(actor);
    const { topic, policy } = checkUserTopicChange(params.topic, params.visibilityPolicy);
    if (policy === VISIBILITY_POLICY.INHERIT) {
      if (!(await this.channels.byId(actor.realmId, params.streamId))) throw new InvalidChannelIdError();
    } else {
      await this.channels.accessById(actor, params.streamId);
    }
    const current = await this.readStore.get<UserTopicDocument>(USER_TOPICS, userTopicDocumentId(userId, params.streamId, topic));
    const command: SetUserTopicVisibilityPolicy = {
      type: 'SetUserTopicVisibilityPolicy',
      data: {
        realmId: actor.realmId,
        userId,
        streamId: params.streamId,
        topic: params.topic,
        visibilityPolicy: params.visibilityPolicy,
        currentPolicy: (current?.visibility_policy ?? VISIBILITY_POLICY.INHERIT) as VisibilityPolicy,
        at: this.clock.now().toISOString(),
      },
    };
    const { newEvents, position } = await this.runner.run(userTopicsDecider, userTopicsStream(userId), command, { actorId: actor.userId }, { stateless: true });
    if (newEvents.length === 0) return;
    await this.projections.waitFor(position);
  }

  private userId(actor: Actor): number {
    if (actor.userId === null) throw new NoSuchUserError();
    return actor.userId;
  }
}
