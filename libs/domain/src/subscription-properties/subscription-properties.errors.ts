import { DomainError } from '../shared/domain-error';

/** SubscriptionPropertyChangeRequest.validate_terms. */
export class UnknownSubscriptionPropertyError extends DomainError {
  constructor(property: string) {
    super(`Unknown subscription property: ${property}`);
  }
}

export class SubscriptionPropertyNotBooleanError extends DomainError {
  constructor(property: string) {
    super(`${property} is not a boolean`);
  }
}

/** check_color("color", value). `PATCH` words it alone; the bulk endpoint wraps it with the entry's index. */
export class InvalidSubscriptionColorError extends DomainError {
  constructor() {
    super('color is not a valid hex color code');
  }
}

/** update_subscription_properties_backend: the channel exists but the user is not subscribed. */
export class NotSubscribedToChannelError extends DomainError {
  constructor(channelId: number) {
    super(`Not subscribed to channel ID ${channelId}`);
  }
}
