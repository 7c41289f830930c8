import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type ChangeSubscriptionProperties, type SubscriptionSettings, checkSubscriptionPropertyChange } from '@app/domain';
import { DeciderCommands } from '../shared/decider-command-handler';
import { subscriptionPropertiesHandler } from './subscription-properties.decider-handler';
import { ChannelQueries } from '../channels/channel.queries';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import type { SubscriptionDocument } from '../subscriptions/subscription.documents';
import { UpdateSubscriptionPropertiesCommand } from './update-subscription-properties.command';

const settingsOf = (sub: SubscriptionDocument): SubscriptionSettings => ({
  color: sub.color,
  is_muted: sub.is_muted,
  pin_to_top: sub.pin_to_top,
  desktop_notifications: sub.desktop_notifications,
  audible_notifications: sub.audible_notifications,
  push_notifications: sub.push_notifications,
  email_notifications: sub.email_notifications,
  wildcard_mentions_notify: sub.wildcard_mentions_notify,
});

/**
 * Zulip checks every entry's property and value first, then takes the entries in order: the
 * channel (access_stream_by_id: "Invalid channel ID"), the subscription ("Not subscribed to
 * channel ID N"), the change. Here all of that is checked before the one append, so a request
 * refused at its third entry changes nothing.
 */
@CommandHandler(UpdateSubscriptionPropertiesCommand)
export class UpdateSubscriptionPropertiesHandler implements ICommandHandler<UpdateSubscriptionPropertiesCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  async execute({ context: { actor }, changes }: UpdateSubscriptionPropertiesCommand): Promise<Record<string, never>> {
    const userId = actor.userId!;
    for (const change of changes) checkSubscriptionPropertyChange(change.property, change.value);
    const facts: ChangeSubscriptionProperties['data']['changes'] = [];
    for (const change of changes) {
      const { isSubscribed } = await this.channels.accessById(actor, change.channelId);
      const sub = await this.subscriptions.subscription(userId, change.channelId);
      facts.push({ ...change, subscribed: isSubscribed, current: sub ? settingsOf(sub) : settingsOf(DEFAULTS) });
    }
    await subscriptionPropertiesHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangeSubscriptionProperties',
      data: { realmId, userId, actorId: actor.userId, now, changes: facts },
    }));
    return {};
  }
}

/** Only reached for a channel the user is not subscribed to, which the decider refuses. */
const DEFAULTS = {
  color: '#c2c2c2', is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null,
  push_notifications: null, email_notifications: null, wildcard_mentions_notify: null,
} as SubscriptionDocument;
