import type { ChannelTopicsPolicy } from '@app/domain';
import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';
import type { Principals } from './principals';

export type SubscriptionRequest = { name: string; description?: string; color?: string };

/** The response of `POST /users/me/subscriptions`, keyed by user id as Zulip does since feature level 289. */
export type AddSubscriptionsResult = {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  /** Present when authorization errors were not fatal. */
  unauthorized?: string[];
};

/**
 * `POST /users/me/subscriptions` (zerver/views/streams.py add_subscriptions_backend): creates the
 * channels that do not exist yet, then subscribes the principals (or the caller) to every channel
 * they may join.
 */
export class AddSubscriptionsCommand extends Command<AddSubscriptionsResult> {
  constructor(
    readonly context: CommandContext,
    readonly request: {
      subscriptions: SubscriptionRequest[];
      principals?: Principals;
      inviteOnly?: boolean;
      historyPublicToSubscribers?: boolean | null;
      isWebPublic?: boolean;
      /** `topics_policy` of the channels it creates (absent: "inherit"). */
      topicsPolicy?: ChannelTopicsPolicy;
      /** `is_default_stream`: the channels it creates become default channels (administrators only). */
      isDefaultStream?: boolean;
      /** `message_retention_days` of the channels it creates: days, "unlimited" or "realm_default" (absent: the latter). */
      messageRetentionDays?: number | string;
      /** Default true: one channel the caller may not join fails the whole request. */
      authorizationErrorsFatal?: boolean;
    },
  ) {
    super();
  }
}
