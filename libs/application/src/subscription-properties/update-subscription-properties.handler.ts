import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type SubscriptionSettings,
  checkSubscriptionPropertyChange,
  subscriptionPropertiesDecider,
  subscriptionPropertiesStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
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
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, changes }: UpdateSubscriptionPropertiesCommand): Promise<Record<string, never>> {
    const userId = actor.userId!;
    for (const change of changes) checkSubscriptionPropertyChange(change.property, change.value);
    const facts = [];
    for (const change of changes) {
      const { isSubscribed } = await this.channels.accessById(actor, change.channelId);
      const sub = await this.subscriptions.subscription(userId, change.channelId);
      facts.push({ ...change, subscribed: isSubscribed, current: sub ? settingsOf(sub) : settingsOf(DEFAULTS) });
    }
    const { position } = await this.runner.run(subscriptionPropertiesDecider, subscriptionPropertiesStream(userId), {
      type: 'ChangeSubscriptionProperties',
      data: { realmId: actor.realmId, userId, actorId: actor.userId, now: this.clock.now().toISOString(), changes: facts },
    });
    await this.projections.waitFor(position);
    return {};
  }
}

/** Only reached for a channel the user is not subscribed to, which the decider refuses. */
const DEFAULTS = {
  color: '#c2c2c2', is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null,
  push_notifications: null, email_notifications: null, wildcard_mentions_notify: null,
} as SubscriptionDocument;
