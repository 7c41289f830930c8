import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

export type SubscriptionPropertyChange = { channelId: number; property: string; value: unknown };

/**
 * `POST /users/me/subscriptions/properties` and `PATCH /users/me/subscriptions/{stream_id}`
 * (zerver/views/streams.py update_subscription_properties_backend): changes of the caller's
 * settings for channels they are subscribed to, applied in order, all or none.
 */
export class UpdateSubscriptionPropertiesCommand extends Command<Record<string, never>> {
  constructor(
    readonly context: CommandContext,
    readonly changes: SubscriptionPropertyChange[],
  ) {
    super();
  }
}
