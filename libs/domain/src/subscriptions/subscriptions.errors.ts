import { DomainError } from '../shared/domain-error';

/** zerver/decorator.py require_non_guest_user (add_subscriptions_backend). */
export class GuestUsersNotAllowedError extends DomainError {
  constructor() {
    super('Not allowed for guest users');
  }
}

/** add_subscriptions_backend with authorization_errors_fatal: the first channel the user may not join. */
export class UnableToAccessChannelError extends DomainError {
  constructor(channelName: string) {
    super(`Unable to access channel (${channelName}).`);
  }
}

/** zerver/lib/streams.py list_to_streams without autocreate. */
export class ChannelsDoNotExistError extends DomainError {
  constructor(names: string[]) {
    super(`Channel(s) (${names.join(', ')}) do not exist`);
  }
}

/** validate_user_access_to_subscribers_helper. */
export class SubscriberDataNotAvailableError extends DomainError {
  constructor() {
    super('Subscriber data is not available for this channel');
  }
}

export class UnableToRetrieveSubscribersError extends DomainError {
  constructor() {
    super('Unable to retrieve subscribers for private channel');
  }
}
