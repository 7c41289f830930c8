import { DomainError } from '../shared/domain-error';

/** zerver/lib/string_validation.py check_stream_name. */
export class InvalidChannelNameError extends DomainError {
  static empty = () => new InvalidChannelNameError("Channel name can't be empty.");
  static tooLong = (limit: number) => new InvalidChannelNameError(`Channel name too long (limit: ${limit} characters).`);
  static invalidCharacter = (position: number) =>
    new InvalidChannelNameError(`Invalid character in channel name, at position ${position}.`);
}

/** zerver/lib/streams.py check_stream_name_available. */
export class ChannelNameInUseError extends DomainError {
  constructor() {
    super('Channel name already in use.');
  }
}

/** zerver/views/streams.py update_stream_backend, renaming to the current name. */
export class ChannelAlreadyHasThatNameError extends DomainError {
  constructor() {
    super('Channel already has that name.');
  }
}

/** Zulip's access_stream_by_id and friends: the same answer for a channel that does not exist and one the user may not see. */
export class InvalidChannelIdError extends DomainError {
  constructor() {
    super('Invalid channel ID');
  }
}

/** access_stream_by_name. */
export class InvalidChannelNameLookupError extends DomainError {
  constructor(name: string) {
    super(`Invalid channel name '${name}'`);
  }
}

/** zerver/lib/exceptions.py CannotAdministerChannelError. */
export class CannotAdministerChannelError extends DomainError {
  constructor() {
    super('You do not have permission to administer this channel.');
  }
}

/** update_stream_backend: an impossible combination of invite_only, history_public_to_subscribers and is_web_public. */
export class InvalidChannelParametersError extends DomainError {
  constructor() {
    super('Invalid parameters');
  }
}

export class ChannelContentAccessRequiredError extends DomainError {
  constructor() {
    super('Channel content access is required.');
  }
}

/** The organization does not allow spectators (Realm.web_public_streams_enabled). */
export class WebPublicChannelsDisabledError extends DomainError {
  constructor() {
    super('Web-public channels are not enabled.');
  }
}

/** do_deactivate_stream. */
export class ChannelAlreadyDeactivatedError extends DomainError {
  constructor() {
    super('Channel is already deactivated');
  }
}

/** do_unarchive_stream. */
export class ChannelNotDeactivatedError extends DomainError {
  constructor() {
    super('Channel is not currently deactivated');
  }
}

/** do_unarchive_stream: a private channel nobody can reach any more stays archived. */
export class PrivateChannelWithoutSubscribersError extends DomainError {
  constructor() {
    super('Channel is private and have no subscribers');
  }
}

/** The limit of Stream.MAX_DESCRIPTION_LENGTH, worded as Zulip's parameter check words it. */
export class ChannelDescriptionTooLongError extends DomainError {
  constructor(limit: number) {
    super(`description is too long (limit: ${limit} characters)`);
  }
}

/**
 * zerver/lib/exceptions.py CannotSetTopicsPolicyError (validate_topics_policy): `empty_topic_only`
 * for a channel that already has messages in named topics. Carries `empty_topic_display_name`.
 */
export class CannotSetTopicsPolicyError extends DomainError {
  constructor(emptyTopicDisplayName: string) {
    super(
      `To enable this configuration, all messages in this channel must be in the ${emptyTopicDisplayName} topic. Consider renaming or deleting other topics.`,
      'BAD_REQUEST',
      400,
      { empty_topic_display_name: emptyTopicDisplayName },
    );
  }
}

/** add_default_stream (`POST /default_streams`) for a private channel. */
export class PrivateChannelCannotBeDefaultError extends DomainError {
  constructor() {
    super('Private channels cannot be made default.');
  }
}

/** update_stream_backend: the channel would be both private and a default channel. */
export class DefaultChannelCannotBePrivateError extends DomainError {
  constructor() {
    super('A default channel cannot be private.');
  }
}

/** zerver/lib/exceptions.py CannotManageDefaultChannelError (`is_default_stream` without can_manage_default_streams). */
export class CannotManageDefaultChannelError extends DomainError {
  constructor() {
    super('You do not have permission to change default channels.');
  }
}
