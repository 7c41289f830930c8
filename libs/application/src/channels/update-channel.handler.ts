import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelsDecider, channelsStream, normalizeChannelDescription, type PrivacyChange } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { RealmQueries } from '../realms/realm.queries';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { ChannelDescriptionRenderer } from './channel-description.renderer';
import { UpdateChannelCommand } from './update-channel.command';

@CommandHandler(UpdateChannelCommand)
export class UpdateChannelHandler implements ICommandHandler<UpdateChannelCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly subscriptions: SubscriptionQueries,
    private readonly renderer: ChannelDescriptionRenderer,
    private readonly realms: RealmQueries,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
  ) {}

  async execute({ context: { actor }, channelId, changes }: UpdateChannelCommand): Promise<void> {
    // Facts from the subscriptions of the channel, which live on another stream.
    const [isSubscribed, members] = await Promise.all([
      this.subscriptions.isSubscribed(actor.userId, channelId),
      this.subscriptions.memberIds(channelId),
    ]);
    let description: { text: string; rendered: string } | undefined;
    if (changes.description !== undefined) {
      const text = normalizeChannelDescription(changes.description);
      description = { text, rendered: await this.renderer.render(text, { realmId: actor.realmId, actorId: actor.userId }) };
    }
    const maySetTopicsPolicy = changes.topicsPolicy !== undefined && (await this.realms.maySetTopicsPolicy(actor));
    // channel_has_named_topics, read only for the one policy that needs it.
    const hasNamedTopics =
      changes.topicsPolicy === 'empty_topic_only' ? (await this.userMessages.topicsOf(actor.realmId, channelId)).some((t) => t.topic !== '') : undefined;
    const privacy: PrivacyChange = {};
    if (changes.isPrivate !== undefined) privacy.isPrivate = changes.isPrivate;
    if (changes.historyPublicToSubscribers !== undefined) privacy.historyPublicToSubscribers = changes.historyPublicToSubscribers;
    if (changes.isWebPublic !== undefined) privacy.isWebPublic = changes.isWebPublic;
    const { position } = await this.runner.run(channelsDecider, channelsStream(actor.realmId), {
      type: 'UpdateChannel',
      data: {
        realmId: actor.realmId, actor, now: this.clock.now().toISOString(), channelId, isSubscribed,
        hasSubscribers: members.length > 0, newName: changes.newName, description, privacy,
        unarchive: changes.isArchived === false, topicsPolicy: changes.topicsPolicy, maySetTopicsPolicy, hasNamedTopics,
        isDefault: changes.isDefault,
      },
    });
    await this.projections.waitFor(position);
  }
}
