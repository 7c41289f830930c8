import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DeciderRunner } from './shared/decider-runner';
import { CreateRealmHandler } from './realms/create-realm.handler';
import { RealmQueries } from './realms/realm-queries';
import { CreateUserHandler } from './users/create-user.handler';
import { UserQueries } from './users/user-queries';
import { ChangeRealmSettingsHandler } from './realms/change-realm-settings.handler';
import { DeactivateRealmHandler } from './realms/deactivate-realm.handler';
import { ReactivateRealmHandler } from './realms/reactivate-realm.handler';
import { CreateBotHandler } from './users/create-bot.handler';
import { ChangeUserRoleHandler } from './users/change-user-role.handler';
import { ChangeUserFullNameHandler } from './users/change-user-full-name.handler';
import { ChangeBotOwnerHandler } from './users/change-bot-owner.handler';
import { DeactivateUserHandler } from './users/deactivate-user.handler';
import { ReactivateUserHandler } from './users/reactivate-user.handler';
import { RegenerateApiKeyHandler } from './users/regenerate-api-key.handler';
import { AuthenticationService } from './users/authentication.service';
import { ChannelQueries } from './channels/channel-queries';
import { ChannelViews } from './channels/channel-views';
import { ChannelTopics, NoMessagesChannelTopics } from './channels/channel-topics';
import { ChannelDescriptionRenderer, PlainTextChannelDescriptionRenderer } from './channels/channel-description.renderer';
import { ConventionalSystemGroupIds, SystemGroupIds } from './channels/system-group-ids';
import { UpdateChannelHandler } from './channels/update-channel.handler';
import { DeactivateChannelHandler } from './channels/deactivate-channel.handler';
import { SubscriptionQueries } from './subscriptions/subscription-queries';
import { SubscriptionViews } from './subscriptions/subscription-views';
import { AddSubscriptionsHandler } from './subscriptions/add-subscriptions.handler';
import { RemoveSubscriptionsHandler } from './subscriptions/remove-subscriptions.handler';
import { SendMessageHandler } from './messages/send-message.handler';
import { SendMessageFactsLoader } from './messages/send-message.facts-loader';
import { NarrowResolver } from './messages/narrow-resolver';
import { MessageQueries } from './messages/get-messages.queries';
import { MarkdownChannelDescriptionRenderer, MessageChannelTopics } from './messages/message-channel-topics';

const HANDLERS = [CreateRealmHandler, CreateUserHandler];
const QUERIES = [RealmQueries, UserQueries];
const IDENTITY_HANDLERS = [
  ChangeRealmSettingsHandler,
  DeactivateRealmHandler,
  ReactivateRealmHandler,
  CreateBotHandler,
  ChangeUserRoleHandler,
  ChangeUserFullNameHandler,
  ChangeBotOwnerHandler,
  DeactivateUserHandler,
  ReactivateUserHandler,
  RegenerateApiKeyHandler,
];
const IDENTITY_SERVICES = [AuthenticationService];
const CHANNEL_HANDLERS = [UpdateChannelHandler, DeactivateChannelHandler, AddSubscriptionsHandler, RemoveSubscriptionsHandler];
const CHANNEL_QUERIES = [ChannelQueries, ChannelViews, SubscriptionQueries, SubscriptionViews];
/**
 * Seams other areas fill: the messaging core binds its Markdown renderer and its topics read
 * model, the user-groups area its system group ids (each replacing the class named here).
 */
const MESSAGE_HANDLERS = [SendMessageHandler];
const MESSAGE_QUERIES = [MessageQueries];
const MESSAGE_SERVICES = [SendMessageFactsLoader, NarrowResolver];
const CHANNEL_SEAMS = [
  { provide: ChannelDescriptionRenderer, useClass: MarkdownChannelDescriptionRenderer },
  { provide: ChannelTopics, useClass: MessageChannelTopics },
  { provide: SystemGroupIds, useClass: ConventionalSystemGroupIds },
];

/** Command handlers and read-model queries. Needs the infrastructure and projections modules (global). */
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [DeciderRunner, ...HANDLERS, ...QUERIES, ...IDENTITY_HANDLERS, ...IDENTITY_SERVICES, ...CHANNEL_HANDLERS, ...CHANNEL_QUERIES, ...CHANNEL_SEAMS, ...MESSAGE_HANDLERS, ...MESSAGE_QUERIES, ...MESSAGE_SERVICES],
  exports: [CqrsModule, DeciderRunner, ...QUERIES, ...IDENTITY_SERVICES, ...CHANNEL_QUERIES, ChannelDescriptionRenderer, ChannelTopics, SystemGroupIds, ...MESSAGE_QUERIES],
})
export class ApplicationModule {}
