import { DeleteTopicHandler } from './delete-topic.handler';
import { RunMessageRetentionHandler } from './message-retention.handler';
import { MessageRetentionTimer } from './message-retention.timer';
import { ReportMessageHandler } from './report-message.handler';
import { RenderMessageQueries } from './render-message.queries';
import { ReadReceiptsQueries } from './read-receipts.queries';
import type { Provider } from '@nestjs/common';
import { messageDecider, messageFlagsDecider, userTopicsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import { ChannelTopics } from '../channels/channel-topics';
import { GroupMembershipNotices } from '../user-groups/group-membership-notices';
import { MarkdownChannelDescriptionRenderer, MessageChannelTopics } from './message-channel-topics';
import { MessagesClientEvents } from './messages.client-events';
import { MessagesRegisterSections } from './messages.register';
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
import { DeletedContentPurge } from '../erasure/deleted-content-purge';

/** The messages area's handlers and the services they share. */
const handlers: Provider[] = [
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
  // The erasure of deleted messages' texts from the event log (docs/security.md).
  DeletedContentPurge,
  // Retention (docs/security.md, "Retention"): the job and its timer.
  RunMessageRetentionHandler,
  MessageRetentionTimer,
];
/** Its read-model queries (exported to the HTTP app and the other areas). */
const queries: Provider[] = [MessageQueries, MessageFlagQueries, UnreadQueries, UserTopicQueries, MessageHistoryQueries, ReadReceiptsQueries, RenderMessageQueries];

/** The seams the channels area declares, filled by the messaging core: its Markdown renderer and its topics read model. */
const channelSeams: Provider[] = [
  { provide: ChannelDescriptionRenderer, useClass: MarkdownChannelDescriptionRenderer },
  { provide: ChannelTopics, useClass: MessageChannelTopics },
];
/** The user groups area's seam: its membership notices come from the one Notification Bot. */
const userGroupSeams: Provider[] = [{ provide: GroupMembershipNotices, useExisting: NotificationBot }];

/** Messages: sending, editing, moving, deleting, flags, topics and their visibility policies, reports. */
export const messagesArea = defineArea({
  name: 'messages',
  providers: [...handlers, ...queries, ...channelSeams, ...userGroupSeams],
  exports: [...queries, ChannelDescriptionRenderer, ChannelTopics, DeletedContentPurge],
  clientEvents: MessagesClientEvents,
  registerSections: MessagesRegisterSections,
  deciders: [messageDecider, messageFlagsDecider, userTopicsDecider],
  // UserTopicVisibilityPolicyChanged is also written by the reactions and submessages deciders (following a topic on a reaction or a vote).
  events: ['MessageSent', 'MessageContentEdited', 'MessagesMoved', 'MessageDeleted', 'UserTopicVisibilityPolicyChanged', 'MessageFlagsChanged'],
  idSequences: [{ sequence: 'message', fields: ['messageId'] }],
});
