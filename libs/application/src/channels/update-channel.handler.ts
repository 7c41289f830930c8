import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { normalizeChannelDescription, type PrivacyChange } from '@app/domain';
import { USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { DeciderCommands } from '../shared/decider-command-handler';
import { channelsHandler } from './channels.decider-handler';
import { RealmQueries } from '../realms/realm.queries';
import { ChannelSubscribers } from './channel-subscribers';
import { ChannelDescriptionRenderer } from './channel-description.renderer';
import { UpdateChannelCommand } from './update-channel.command';

@CommandHandler(UpdateChannelCommand)
export class UpdateChannelHandler implements ICommandHandler<UpdateChannelCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly subscriptions: ChannelSubscribers,
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
    await channelsHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'UpdateChannel',
      data: {
        realmId, actor, now, channelId, isSubscribed,
        hasSubscribers: members.length > 0, newName: changes.newName, description, privacy,
        unarchive: changes.isArchived === false, topicsPolicy: changes.topicsPolicy, maySetTopicsPolicy, hasNamedTopics,
        isDefault: changes.isDefault, messageRetentionDays: changes.messageRetentionDays,
      },
    }));
  }
}
