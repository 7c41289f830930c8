import { CHANNEL_TOPICS_POLICIES, type ChannelTopicsPolicy, isValidColor, MAX_CHANNEL_DESCRIPTION_LENGTH } from '@app/domain';
import type { Principals, SubscriptionRequest } from '@app/application';
import { BoolParam, EnumParam, JsonParam } from '../http/params/param.decorators';
import { type Shape, shapes } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';
import { messageRetentionDaysShape } from '../http/params/message-retention-days';

const pathOf = (base: string, key: string | number) => `${base}[${JSON.stringify(key)}]`;

/**
 * One entry of `subscriptions` (Zulip's AddSubscriptionData): `name`, an optional `color` checked
 * as check_color does, and an optional `description` of at most 1024 characters. Other keys are
 * ignored, as pydantic's default model ignores them.
 */
const subscriptionEntry: Shape<SubscriptionRequest> = {
  describe: {
    type: 'object',
    properties: { name: { type: 'string' }, color: { type: 'string' }, description: { type: 'string', maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH } },
    required: ['name'],
  },
  parse: (value, p) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidParamError(`${p} is not a dict`);
    const input = value as Record<string, unknown>;
    if (input.name === undefined) throw new InvalidParamError(`${pathOf(p, 'name')} field is missing`);
    const entry: SubscriptionRequest = { name: shapes.string().parse(input.name, pathOf(p, 'name')) };
    if (input.color !== undefined && input.color !== null) {
      const color = shapes.string().parse(input.color, pathOf(p, 'color'));
      if (!isValidColor(color)) throw new InvalidParamError('add.color is not a valid hex color code');
      entry.color = color;
    }
    if (input.description !== undefined && input.description !== null) {
      entry.description = shapes.string({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).parse(input.description, pathOf(p, 'description'));
    }
    return entry;
  },
};

/** Emails or user ids (Json[list[str] | list[int]]). */
const principals: Shape<Principals> = shapes.union<Principals>(shapes.list(shapes.string()), shapes.list(shapes.int()));

/** POST /users/me/subscriptions. */
export class AddSubscriptionsDto {
  @JsonParam(shapes.list(subscriptionEntry), { description: 'Channels to subscribe to, by name; missing ones are created.' })
  subscriptions!: SubscriptionRequest[];

  @JsonParam(principals, { optional: true, description: 'Users to subscribe (emails or ids); default the caller.' })
  principals?: Principals;

  @BoolParam({ optional: true, description: 'Default true: one channel the caller may not join fails the request.' })
  authorization_errors_fatal?: boolean;

  @BoolParam({ optional: true, description: 'Announce new channels in the announcements channel, when the organization has one.' })
  announce?: boolean;

  @BoolParam({ optional: true, description: 'Create missing channels as private.' })
  invite_only?: boolean;

  @BoolParam({ optional: true, description: 'Whether new subscribers of new private channels see earlier messages.' })
  history_public_to_subscribers?: boolean;

  @BoolParam({ optional: true, description: 'Create missing channels as web-public.' })
  is_web_public?: boolean;

  @BoolParam({ optional: true, description: 'Make the channels it creates default channels, which new users join (administrators only; not with invite_only).' })
  is_default_stream?: boolean;

  @EnumParam(CHANNEL_TOPICS_POLICIES, {
    optional: true,
    description: 'The topics policy of the channels it creates (default "inherit"); any other value needs can_set_topics_policy_group (administrators always may).',
  })
  topics_policy?: ChannelTopicsPolicy;

  @JsonParam(messageRetentionDaysShape(['realm_default', 'unlimited']), {
    optional: true,
    description: 'Days the messages of the channels it creates are kept: a positive integer, "unlimited", or "realm_default" (the default); anything but "realm_default" is for owners only.',
  })
  message_retention_days?: number | string;
}

/** DELETE /users/me/subscriptions. */
export class RemoveSubscriptionsDto {
  @JsonParam(shapes.list(shapes.string()), { description: 'Names of the channels to unsubscribe from.' })
  subscriptions!: string[];

  @JsonParam(principals, { optional: true, description: 'Users to unsubscribe (emails or ids); default the caller.' })
  principals?: Principals;
}

/** GET /users/me/subscriptions. */
export class GetSubscriptionsDto {
  @BoolParam({ optional: true, description: 'Include the subscribers of each channel.' })
  include_subscribers?: boolean;
}
