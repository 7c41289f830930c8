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
import { EditMessageHandler } from './messages/edit-message.handler';
import { DeleteMessageHandler } from './messages/delete-message.handler';
import { EditMessageFactsLoader } from './messages/edit-message.facts-loader';
import { MessageHistoryQueries } from './messages/message-history.queries';
import { MessageNotices } from './messages/message-notices';
import { NarrowResolver } from './messages/narrow-resolver';
import { MessageQueries } from './messages/get-messages.queries';
import { MessageFlagsService } from './messages/message-flags.service';
import { UnreadQueries } from './messages/unread-queries';
import { UserTopicsService } from './messages/user-topics.service';
import { MarkdownChannelDescriptionRenderer, MessageChannelTopics } from './messages/message-channel-topics';

import { SETTINGS_HANDLERS, SETTINGS_QUERIES } from './settings/settings.providers';
import { SUBSCRIPTION_PROPERTIES_HANDLERS } from './subscription-properties/subscription-properties.providers';
import { USER_STATUS_HANDLERS, USER_STATUS_QUERIES } from './user-status/user-status.providers';
import { DRAFTS_HANDLERS, DRAFTS_QUERIES } from './drafts/drafts.providers';
import { SCHEDULED_MESSAGES_HANDLERS, SCHEDULED_MESSAGES_QUERIES } from './scheduled-messages/scheduled-messages.providers';
import { SAVED_SNIPPETS_HANDLERS, SAVED_SNIPPETS_QUERIES } from './saved-snippets/saved-snippets.providers';
import { MUTED_USERS_HANDLERS, MUTED_USERS_QUERIES } from './muted-users/muted-users.providers';
import { BOT_STORAGE_HANDLERS, BOT_STORAGE_QUERIES } from './bot-storage/bot-storage.providers';

import { CHANNEL_FOLDERS_HANDLERS, CHANNEL_FOLDERS_QUERIES } from './channel-folders/channel-folders.providers';
import { CUSTOM_PROFILE_FIELDS_HANDLERS, CUSTOM_PROFILE_FIELDS_QUERIES } from './custom-profile-fields/custom-profile-fields.providers';
import { REALM_EMOJI_HANDLERS, REALM_EMOJI_QUERIES } from './realm-emoji/realm-emoji.providers';
import { PUSH_DEVICES_HANDLERS, PUSH_DEVICES_QUERIES } from './push-devices/push-devices.providers';
import { UPLOADS_HANDLERS, UPLOADS_QUERIES } from './uploads/uploads.providers';
import { CLIENT_EVENT_AREAS, REGISTER_SECTION_AREAS } from './areas';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { ClientEventMappers } from './events/client-event-mappers';
import { REGISTER_SECTIONS, RegisterState } from './events/register-state';

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
const MESSAGE_HANDLERS = [SendMessageHandler, EditMessageHandler, DeleteMessageHandler];
const MESSAGE_QUERIES = [MessageQueries, MessageFlagsService, UnreadQueries, UserTopicsService, MessageHistoryQueries];
const MESSAGE_SERVICES = [SendMessageFactsLoader, NarrowResolver, EditMessageFactsLoader, MessageNotices];
const CHANNEL_SEAMS = [
  { provide: ChannelDescriptionRenderer, useClass: MarkdownChannelDescriptionRenderer },
  { provide: ChannelTopics, useClass: MessageChannelTopics },
  { provide: SystemGroupIds, useClass: ConventionalSystemGroupIds },
];

/** What the areas contribute to the shared lists of real-time events and /register (areas.ts). */
const AREA_CONTRIBUTIONS = [
  ...new Set([...CLIENT_EVENT_AREAS, ...REGISTER_SECTION_AREAS]),
  {
    provide: ClientEventMappers,
    inject: CLIENT_EVENT_AREAS,
    useFactory: (...areas: AreaClientEvents[]) => ClientEventMappers.of(areas),
  },
  {
    provide: REGISTER_SECTIONS,
    inject: REGISTER_SECTION_AREAS,
    useFactory: (...areas: AreaRegisterSections[]) => areas.flatMap((area) => area.registerSections()),
  },
  RegisterState,
];

/** Command handlers and read-model queries. Needs the infrastructure and projections modules (global). */
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [DeciderRunner, ...AREA_CONTRIBUTIONS, ...HANDLERS, ...QUERIES, ...IDENTITY_HANDLERS, ...IDENTITY_SERVICES, ...CHANNEL_HANDLERS, ...CHANNEL_QUERIES, ...CHANNEL_SEAMS, ...MESSAGE_HANDLERS, ...MESSAGE_QUERIES, ...MESSAGE_SERVICES, ...SETTINGS_HANDLERS, ...SETTINGS_QUERIES, ...SUBSCRIPTION_PROPERTIES_HANDLERS, ...USER_STATUS_HANDLERS, ...USER_STATUS_QUERIES, ...DRAFTS_HANDLERS, ...DRAFTS_QUERIES, ...SCHEDULED_MESSAGES_HANDLERS, ...SCHEDULED_MESSAGES_QUERIES, ...SAVED_SNIPPETS_HANDLERS, ...SAVED_SNIPPETS_QUERIES, ...MUTED_USERS_HANDLERS, ...MUTED_USERS_QUERIES, ...BOT_STORAGE_HANDLERS, ...BOT_STORAGE_QUERIES, ...CHANNEL_FOLDERS_HANDLERS, ...CHANNEL_FOLDERS_QUERIES, ...CUSTOM_PROFILE_FIELDS_HANDLERS, ...CUSTOM_PROFILE_FIELDS_QUERIES, ...REALM_EMOJI_HANDLERS, ...REALM_EMOJI_QUERIES, ...PUSH_DEVICES_HANDLERS, ...PUSH_DEVICES_QUERIES, ...UPLOADS_HANDLERS, ...UPLOADS_QUERIES],
  exports: [CqrsModule, DeciderRunner, ClientEventMappers, RegisterState, ...QUERIES, ...IDENTITY_SERVICES, ...CHANNEL_QUERIES, ChannelDescriptionRenderer, ChannelTopics, SystemGroupIds, ...MESSAGE_QUERIES, ...SETTINGS_QUERIES, ...USER_STATUS_QUERIES, ...DRAFTS_QUERIES, ...SCHEDULED_MESSAGES_QUERIES, ...SAVED_SNIPPETS_QUERIES, ...MUTED_USERS_QUERIES, ...BOT_STORAGE_QUERIES, ...CHANNEL_FOLDERS_QUERIES, ...CUSTOM_PROFILE_FIELDS_QUERIES, ...REALM_EMOJI_QUERIES, ...PUSH_DEVICES_QUERIES, ...UPLOADS_QUERIES],
})
export class ApplicationModule {}
