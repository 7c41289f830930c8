import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkUserTopicChange, InvalidChannelIdError, NoSuchUserError, userTopicsDecider, userTopicsStream, VISIBILITY_POLICY } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SetUserTopicVisibilityPolicyCommand } from './user-topics.command';
import { UserTopicQueries } from './user-topics.queries';

/**
 * POST /user_topics (zerver/views/user_topics.py update_user_topic,
 * do_set_user_topic_visibility_policy): parameters first (topic length, policy), then the
 * channel: setting a policy needs access to the channel (access_stream_by_id, "Invalid channel
 * ID"); removing one (INHERIT) only needs the channel to exist in the organization
 * (access_stream_to_remove_visibility_policy_by_id), so a user can still unmute a topic of a
 * channel they lost access to. The current policy is a fact read from the read model (see
 * userTopicsStream); userTopicsDecider records the change, or nothing when it is already the policy.
 */
@CommandHandler(SetUserTopicVisibilityPolicyCommand)
export class SetUserTopicVisibilityPolicyHandler implements ICommandHandler<SetUserTopicVisibilityPolicyCommand> {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly userTopics: UserTopicQueries,
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, request }: SetUserTopicVisibilityPolicyCommand): Promise<void> {
    if (actor.userId === null) throw new NoSuchUserError();
    const userId = actor.userId;
    const { topic, policy } = checkUserTopicChange(request.topic, request.visibilityPolicy);
    if (policy === VISIBILITY_POLICY.INHERIT) {
      if (!(await this.channels.byId(actor.realmId, request.streamId))) throw new InvalidChannelIdError();
    } else {
      await this.channels.accessById(actor, request.streamId);
    }
    const currentPolicy = await this.userTopics.policyOf(userId, request.streamId, topic);
    const { newEvents, position } = await this.runner.run(
      userTopicsDecider,
      userTopicsStream(userId),
      {
        type: 'SetUserTopicVisibilityPolicy',
        data: { realmId: actor.realmId, userId, streamId: request.streamId, topic: request.topic, visibilityPolicy: request.visibilityPolicy, currentPolicy, at: this.clock.now().toISOString() },
      },
      { actorId: userId },
      { stateless: true },
    );
    if (newEvents.length === 0) return;
    await this.projections.waitFor(position);
  }
}
