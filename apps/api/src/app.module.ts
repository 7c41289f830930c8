import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ApplicationModule } from '@app/application';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { OperationsModule, ProjectionsModule } from '@app/projections';
import { HealthController } from './health/health.controller';
import { DevelopmentOrganization } from './development/development-organization';
import { HttpConventionsModule } from './http/http-conventions.module';
import { ServerSettingsController } from './server-settings/server-settings.controller';
import { StaticController } from './server-settings/static.controller';
import { RegisterController } from './register/register.controller';
import { EventsModule } from './events/events.module';
import { OpenApiController } from './openapi/openapi.controller';
import { UsersController } from './users/users.controller';
import { BotsController } from './bots/bots.controller';
import { AuthController } from './auth/auth.controller';
import { AvatarsController } from './avatars/avatars.controller';
import { ChannelsController } from './channels/channels.controller';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { MessagesController } from './messages/messages.controller';
import { MessageFlagsController } from './messages/message-flags.controller';
import { UserTopicsController } from './messages/user-topics.controller';
import { DraftsController } from './drafts/drafts.controller';
import { ScheduledMessagesController } from './scheduled-messages/scheduled-messages.controller';
import { SavedSnippetsController } from './saved-snippets/saved-snippets.controller';
import { MutedUsersController } from './muted-users/muted-users.controller';
import { AlertWordsController } from './alert-words/alert-words.controller';
import { MessageExtrasController } from './messages/message-extras.controller';
import { ChannelExtrasController } from './channels/channel-extras.controller';
import { ReactionsController } from './reactions/reactions.controller';
import { SubmessagesController } from './submessages/submessages.controller';
import { BotStorageController } from './bot-storage/bot-storage.controller';
import { SettingsController } from './settings/settings.controller';
import { EmailConfirmationController } from './settings/email-confirmation.controller';
import { DevEmailsController } from './development/dev-emails.controller';
import { SubscriptionPropertiesController } from './subscription-properties/subscription-properties.controller';
import { UserStatusController } from './user-status/user-status.controller';
import { PresenceController } from './presence/presence.controller';
import { ChannelFoldersController } from './channel-folders/channel-folders.controller';
import { UserGroupsController } from './user-groups/user-groups.controller';
import { CustomProfileFieldsController } from './custom-profile-fields/custom-profile-fields.controller';
import { ProfileDataController } from './custom-profile-fields/profile-data.controller';
import { LinkifiersController } from './linkifiers/linkifiers.controller';
import { DefaultChannelsController } from './channels/default-channels.controller';
import { RealmPlaygroundsController } from './realm-playgrounds/realm-playgrounds.controller';
import { RealmEmojiController } from './realm-emoji/realm-emoji.controller';
import { EmojiImagesController } from './realm-emoji/emoji-images.controller';
import { PushDevicesController } from './push-devices/push-devices.controller';
import { ClientDevicesController } from './push-devices/client-devices.controller';
import { RealmController } from './realms/realm.controller';
import { OperationsController } from './operations/operations.controller';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsSources } from './metrics/metrics-sources';
import { ApiDocsController } from './api-docs/api-docs.controller';
import { ConsoleController } from './console/console.controller';
import { UploadsController } from './uploads/uploads.controller';
import { UserUploadFilesController } from './uploads/user-upload-files.controller';
import { AttachmentsController } from './attachments/attachments.controller';
import { TusController } from './tus/tus.controller';
import { InvitationsController } from './invitations/invitations.controller';
import { SignUpController } from './invitations/sign-up.controller';
import { TusUploads } from './tus/tus-uploads';

export type AppOptions = InfrastructureOptions;

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // A server refuses a log whose sealed texts it has no key for (docs/deployment.md).
        InfrastructureModule.forRoot({ checkSealedLog: true, ...options }),
        ProjectionsModule.forRoot({ runProjectors: options.config.runProjectors }),
        ApplicationModule,
        HttpConventionsModule,
        DiscoveryModule,
        EventsModule,
        OperationsModule,
      ],
      controllers: [HealthController, ServerSettingsController, StaticController, RegisterController, OpenApiController, UsersController, BotsController, AuthController, AvatarsController, ChannelsController, SubscriptionsController, MessagesController, ReactionsController, MessageFlagsController, UserTopicsController, DraftsController, ScheduledMessagesController, SavedSnippetsController, MutedUsersController, BotStorageController, SettingsController, EmailConfirmationController, DevEmailsController, SubscriptionPropertiesController, UserStatusController, PresenceController, ChannelFoldersController, CustomProfileFieldsController, ProfileDataController, RealmEmojiController, EmojiImagesController, PushDevicesController, RealmController, OperationsController, MetricsController, ApiDocsController, ConsoleController, UploadsController, UserUploadFilesController, AttachmentsController, TusController, LinkifiersController, DefaultChannelsController, RealmPlaygroundsController, AlertWordsController, MessageExtrasController, ChannelExtrasController, UserGroupsController, ClientDevicesController, SubmessagesController, InvitationsController, SignUpController],
      providers: [DevelopmentOrganization, TusUploads, MetricsSources],
    };
  }
}
