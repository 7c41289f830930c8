import { DeleteTopicHandler } from './delete-topic.handler';
import { ReportMessageHandler } from './report-message.handler';
import { RenderMessageQueries } from './render-message.queries';
import { ReadReceiptsQueries } from './read-receipts.queries';
import type { Provider } from '@nestjs/common';
import { DeleteMessageHandler } from './delete-message.handler';
import { EditMessageFactsLoader } from './edit-message.facts-loader';
import { EditMessageHandler } from './edit-message.handler';
import { MessageQueries } from './message.queries';
import { MarkAllAsReadHandler, MarkChannelAsReadHandler, MarkTopicAsReadHandler, UpdateMessageFlagsForNarrowHandler, UpdateMessageFlagsHandler } from './message-flags.handler';
import { MessageFlagsFactsLoader } from './message-flags.facts-loader';
import { MessageFlagQueries } from './message-flags.queries';
import { MessageHistoryQueries } from './message-history.queries';
import { NotificationBot } from './notification-bot';
import { MessageAccess } from './message-access';
import { MessageExtensions } from './message-extensions';
import { MessageSender } from './message-sender';
import { NarrowResolver } from './narrow-resolver';
import { SendMessageFactsLoader } from './send-message.facts-loader';
import { SendMessageHandler } from './send-message.handler';
import { UnreadQueries } from './unread.queries';
import { TopicParticipationLoader } from './topic-participation.loader';
import { SetUserTopicVisibilityPolicyHandler, UpdateMutedTopicHandler } from './user-topics.handler';
import { UserTopicQueries } from './user-topics.queries';

/** The messages area's handlers and the services they share, registered by ApplicationModule. */
export const MESSAGES_HANDLERS: Provider[] = [
  SendMessageHandler,
  EditMessageHandler,
  DeleteMessageHandler,
  DeleteTopicHandler,
  MessageSender,
  SendMessageFactsLoader,
  EditMessageFactsLoader,
  NotificationBot,
  MessageAccess,
  MessageExtensions,
  NarrowResolver,
  UpdateMessageFlagsHandler,
  UpdateMessageFlagsForNarrowHandler,
  MarkAllAsReadHandler,
  MarkChannelAsReadHandler,
  MarkTopicAsReadHandler,
  MessageFlagsFactsLoader,
  SetUserTopicVisibilityPolicyHandler,
  UpdateMutedTopicHandler,
  ReportMessageHandler,
  TopicParticipationLoader,
];
/** Its read-model queries (exported to the HTTP app and the other areas). */
export const MESSAGES_QUERIES: Provider[] = [MessageQueries, MessageFlagQueries, UnreadQueries, UserTopicQueries, MessageHistoryQueries, ReadReceiptsQueries, RenderMessageQueries];
