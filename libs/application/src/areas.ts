import type { Type } from '@nestjs/common';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { CoreClientEventMappers } from './events/mappers/core-client-event-mappers';
import { MessageLifecycleClientEventMappers } from './events/mappers/message-lifecycle-client-event-mappers';
import { UsersChannelsClientEventMappers } from './events/mappers/users-channels-client-event-mappers';
import { DraftsClientEvents } from './drafts/drafts.client-events';
import { DraftsRegisterSections } from './drafts/drafts.register';
import { RealmsRegisterSections } from './realms/realms.register';
import { UsersRegisterSections } from './users/users.register';
import { SubscriptionsRegisterSections } from './subscriptions/subscriptions.register';
import { ChannelsRegisterSections } from './channels/channels.register';
import { RealmEmojiRegisterSections } from './realm-emoji/realm-emoji.register';
import { CustomProfileFieldsRegisterSections } from './custom-profile-fields/custom-profile-fields.register';
import { ChannelFoldersRegisterSections } from './channel-folders/channel-folders.register';
import { MessagesRegisterSections } from './messages/messages.register';
import { SavedSnippetsRegisterSections } from './saved-snippets/saved-snippets.register';
import { ScheduledMessagesRegisterSections } from './scheduled-messages/scheduled-messages.register';
import { MutedUsersRegisterSections } from './muted-users/muted-users.register';
import { SettingsRegisterSections } from './settings/settings.register';
import { UserStatusRegisterSections } from './user-status/user-status.register';

/**
 * The one registration line per area for what every area may contribute to shared lists: its
 * client events (`<area>/<area>.client-events.ts`) and its /register sections
 * (`<area>/<area>.register.ts`). ApplicationModule provides them; see docs/adding-an-area.md.
 */
export const CLIENT_EVENT_AREAS: Type<AreaClientEvents>[] = [
  CoreClientEventMappers,
  UsersChannelsClientEventMappers,
  MessageLifecycleClientEventMappers,
  DraftsClientEvents,
];

export const REGISTER_SECTION_AREAS: Type<AreaRegisterSections>[] = [
  RealmsRegisterSections,
  UsersRegisterSections,
  SubscriptionsRegisterSections,
  ChannelsRegisterSections,
  RealmEmojiRegisterSections,
  CustomProfileFieldsRegisterSections,
  ChannelFoldersRegisterSections,
  MessagesRegisterSections,
  SavedSnippetsRegisterSections,
  ScheduledMessagesRegisterSections,
  MutedUsersRegisterSections,
  SettingsRegisterSections,
  UserStatusRegisterSections,
  DraftsRegisterSections,
];
