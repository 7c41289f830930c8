import { DomainError } from '../shared/domain-error';

/** Errors of sending and reading messages, worded and coded as Zulip words and codes them. */
export class MessageError extends DomainError {}

/** zerver/lib/message.py normalize_body. */
export const emptyMessage = () => new MessageError('Message must not be empty');
export const messageHasNullBytes = () => new MessageError('Message must not contain null bytes');

/** zerver/lib/string_validation.py check_stream_topic. */
export const invalidTopicCharacter = (position: number) =>
  new MessageError(`Invalid character in topic, at position ${position}!`);

/** zerver/lib/addressee.py Addressee.legacy_build. */
export const missingTopic = () => new MessageError('Missing topic');
export const missingChannel = () => new MessageError('Missing channel');
export const messageMustHaveRecipients = () => new MessageError('Message must have recipients');
export const invalidMessageType = () => new MessageError('Invalid message type');
export const invalidEmail = (email: string) => new MessageError(`Invalid email '${email}'`);
export const invalidUserId = (userId: number) => new MessageError(`Invalid user ID ${userId}`);

/** zerver/lib/recipient_users.py validate_recipient_user_profiles. */
export const userNoLongerActive = (email: string) => new MessageError(`'${email}' is no longer using Zulip.`);

/** zerver/lib/exceptions.py DirectMessagePermissionError (is_nobody_group or not) and DirectMessageInitiationError. */
export const directMessagesDisabled = () => new MessageError('Direct messages are disabled in this organization.');
export const directMessageNotAuthorized = () => new MessageError('This conversation does not include any users who can authorize it.');
export const directMessageInitiationNotAllowed = () => new MessageError('You are not allowed to start direct message conversations.');

/** zerver/actions/message_send.py extract_stream_indicator / extract_private_recipients. */
export const expectedExactlyOneChannel = () => new MessageError('Expected exactly one channel');
export const invalidChannelDataType = () => new MessageError('Invalid data type for channel');
export const invalidRecipientsDataType = () => new MessageError('Invalid data type for recipients');
export const mixedRecipientTypes = () => new MessageError('Recipient lists may contain emails or user IDs, but not both.');

/** zerver/lib/exceptions.py StreamDoesNotExistError: the name is HTML-escaped, as Zulip escapes it. */
export const channelDoesNotExist = (escapedName: string) =>
  new MessageError(`Channel '${escapedName}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: escapedName });
/** zerver/lib/exceptions.py StreamWithIDDoesNotExistError. */
export const channelIdDoesNotExist = (streamId: number) =>
  new MessageError(`Channel with ID '${streamId}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream_id: streamId });

/** zerver/lib/streams.py access_stream_for_send_message. */
export const notAuthorizedToSend = (channelName: string) => new MessageError(`Not authorized to send to channel '${channelName}'`);
export const noPermissionToPost = () => new MessageError('You do not have permission to post in this channel.');

/**
 * zerver/lib/exceptions.py MessagesNotAllowedInEmptyTopicError, raised by check_message when the
 * channel's topics_policy is disable_empty_topic; the name is the empty topic's display name.
 */
export const messagesNotAllowedInEmptyTopic = (emptyTopicDisplayName: string) =>
  new MessageError(`Sending messages to the ${emptyTopicDisplayName} is not allowed in this channel.`, 'BAD_REQUEST', 400, {
    empty_topic_display_name: emptyTopicDisplayName,
  });

/**
 * zerver/lib/exceptions.py TopicsNotAllowedError, raised by check_message (and by a move) when the
 * channel's topics_policy is empty_topic_only and the topic is a named one.
 */
export const topicsNotAllowed = (emptyTopicDisplayName: string) =>
  new MessageError(`Only the ${emptyTopicDisplayName} topic is allowed in this channel.`, 'BAD_REQUEST', 400, {
    empty_topic_display_name: emptyTopicDisplayName,
  });

/** zerver/lib/exceptions.py StreamWildcardMentionNotAllowedError / TopicWildcardMentionNotAllowedError. */
export const streamWildcardMentionNotAllowed = () =>
  new MessageError('You do not have permission to use channel wildcard mentions in this channel.', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
export const topicWildcardMentionNotAllowed = () =>
  new MessageError('You do not have permission to use topic wildcard mentions in this topic.', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');

/**
 * The message was already sent (a message id is used once): `message-<id>` holds its
 * `MessageSent`. A typed error, so a caller that may race another sender of the same id (a
 * scheduled delivery run twice) recognises it without reading its message. Message ids come from
 * the id allocator, so no client request can meet it: should one, the allocator handed out an id
 * twice, a server fault (500, logged), not a conflict for the client to resolve.
 */
export class MessageAlreadySentError extends MessageError {
  constructor(readonly messageId: number) {
    super(`Message ${messageId} already exists`, 'INTERNAL_SERVER_ERROR', 500);
  }
}

/** zerver/lib/message.py access_message: the same answer for missing and inaccessible messages. */
export const invalidMessage = () => new MessageError('Invalid message(s)');

/** zerver/actions/message_edit.py validate_message_edit_payload and check_update_message. */
export const nothingToChange = () => new MessageError('Nothing to change');
export const directMessagesCannotBeMoved = () => new MessageError('Direct messages cannot be moved to channels.');
export const directMessagesCannotHaveTopics = () => new MessageError('Direct messages cannot have topics.');
export const invalidPropagateModeWithoutTopicEdit = () => new MessageError('Invalid propagate_mode without topic edit');
export const generalChatCannotBeResolved = () => new MessageError('General chat cannot be marked as resolved');
export const cannotChangeContentWhileChangingChannel = () => new MessageError('Cannot change message content while changing channel');
/** zerver/lib/exceptions.py PreviousMessageContentMismatchedError. */
export const previousContentMismatched = () =>
  new MessageError("'prev_content_sha256' value does not match the expected value.", 'EXPECTATION_MISMATCH', 400, { field_name: 'prev_content_sha256' });
export const messageEditingDisabled = () => new MessageError('Your organization has turned off message editing');
export const noPermissionToEditMessage = () => new MessageError("You don't have permission to edit this message");
export const editTimeLimitPassed = () => new MessageError('The time limit for editing this message has passed');
export const noPermissionToResolveTopics = () => new MessageError("You don't have permission to resolve topics in this channel.");
export const topicEditTimeLimitPassed = () => new MessageError("The time limit for editing this message's topic has passed.");
export const noPermissionToMoveMessage = () => new MessageError("You don't have permission to move this message");
export const channelEditTimeLimitPassed = () => new MessageError("The time limit for editing this message's channel has passed");
/** zerver/lib/streams.py access_stream_by_id: the same answer for missing and inaccessible channels. */
export const invalidChannelId = () => new MessageError('Invalid channel ID');
/** zerver/lib/exceptions.py MessageMoveError. */
export const moveMessagesTimeLimitExceeded = (firstMessageIdAllowedToMove: number | null, totalMessagesAllowedToMove: number, totalMessagesInTopic: number) =>
  new MessageError('You only have permission to move the {total_messages_allowed_to_move}/{total_messages_in_topic} most recent messages in this topic.'
    .replace('{total_messages_allowed_to_move}', String(totalMessagesAllowedToMove))
    .replace('{total_messages_in_topic}', String(totalMessagesInTopic)), 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', 400, {
    first_message_id_allowed_to_move: firstMessageIdAllowedToMove,
    total_messages_allowed_to_move: totalMessagesAllowedToMove,
    total_messages_in_topic: totalMessagesInTopic,
  });

/** zerver/views/message_edit.py validate_can_delete_message / delete_message_backend. */
export const noPermissionToDeleteMessage = () => new MessageError("You don't have permission to delete this message");
export const deleteTimeLimitPassed = () => new MessageError('The time limit for deleting this message has passed');
export const messageAlreadyDeleted = () => new MessageError('Message already deleted');
