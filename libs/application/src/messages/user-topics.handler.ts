import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkUserTopicChange, DomainError, InvalidChannelIdError, NoSuchUserError, userTopicsDecider, userTopicsStream, VISIBILITY_POLICY } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SetUserTopicVisibilityPolicyCommand, UpdateMutedTopicCommand } from './user-topics.command';
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

/**
 * The deprecated PATCH /users/me/subscriptions/muted_topics (update_muted_topic): the channel
 * by id or by name (exactly one: "Missing 'stream_id' argument", "Unsupported parameter
 * combination: stream_id, stream"); `add` mutes with access to the channel
 * (access_stream_by_id / _by_name); `remove` needs only a channel of the organization and
 * otherwise answers "Topic is not muted" (access_stream_to_remove_visibility_policy_by_*).
 * Both then set the policy as POST /user_topics does.
 */
@CommandHandler(UpdateMutedTopicCommand)
export class UpdateMutedTopicHandler implements ICommandHandler<UpdateMutedTopicCommand> {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly commands: CommandBus,
  ) {}

  async execute({ context, request }: UpdateMutedTopicCommand): Promise<void> {
    const { actor } = context;
    checkUserTopicChange(request.topic, VISIBILITY_POLICY.MUTED);
    if (request.streamId === undefined && request.streamName === undefined) throw new DomainError("Missing 'stream_id' argument");
    if (request.streamId !== undefined && request.streamName !== undefined) {
      throw new DomainError('Unsupported parameter combination: stream_id, stream', 'BAD_REQUEST', 400, { parameters: 'stream_id, stream' });
    }
    let streamId: number;
    if (request.op === 'add') {
      const { channel } = request.streamId !== undefined ? await this.channels.accessById(actor, request.streamId) : await this.channels.accessByName(actor, request.streamName!);
      streamId = channel.stream_id;
    } else {
      const channel = request.streamId !== undefined ? await this.channels.byId(actor.realmId, request.streamId) : await this.channels.byName(actor.realmId, request.streamName!);
      if (!channel) throw new DomainError('Topic is not muted');
      streamId = channel.stream_id;
    }
    const visibilityPolicy = request.op === 'add' ? VISIBILITY_POLICY.MUTED : VISIBILITY_POLICY.INHERIT;
    await this.commands.execute(new SetUserTopicVisibilityPolicyCommand(context, { streamId, topic: request.topic, visibilityPolicy }));
  }
}
