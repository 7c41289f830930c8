import type { Type } from '@nestjs/common';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { RealmsClientEvents } from './realms/realms.client-events';
import { UsersClientEvents } from './users/users.client-events';
import { ChannelsClientEvents } from './channels/channels.client-events';
import { SubscriptionsClientEvents } from './subscriptions/subscriptions.client-events';
import { SubscriptionPropertiesClientEvents } from './subscription-properties/subscription-properties.client-events';
import { MessagesClientEvents } from './messages/messages.client-events';
import { ScheduledMessagesClientEvents } from './scheduled-messages/scheduled-messages.client-events';
import { UploadsClientEvents } from './uploads/uploads.client-events';
import { RealmEmojiClientEvents } from './realm-emoji/realm-emoji.client-events';
import { CustomProfileFieldsClientEvents } from './custom-profile-fields/custom-profile-fields.client-events';
import { ChannelFoldersClientEvents } from './channel-folders/channel-folders.client-events';
import { SavedSnippetsClientEvents } from './saved-snippets/saved-snippets.client-events';
import { SettingsClientEvents } from './settings/settings.client-events';
import { MutedUsersClientEvents } from './muted-users/muted-users.client-events';
import { UserStatusClientEvents } from './user-status/user-status.client-events';
import { DraftsClientEvents } from './drafts/drafts.client-events';
import { DraftsRegisterSections } from './drafts/drafts.register';
import { PresenceClientEvents } from './presence/presence.client-events';
import { ReactionsClientEvents } from './reactions/reactions.client-events';
import { SubmessagesClientEvents } from './submessages/submessages.client-events';
import { PresenceRegisterSections } from './presence/presence.register';
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
import { LinkifiersClientEvents } from './linkifiers/linkifiers.client-events';
import { LinkifiersRegisterSections } from './linkifiers/linkifiers.register';
import { RealmPlaygroundsClientEvents } from './realm-playgrounds/realm-playgrounds.client-events';
import { RealmPlaygroundsRegisterSections } from './realm-playgrounds/realm-playgrounds.register';
import { AlertWordsClientEvents } from './alert-words/alert-words.client-events';
import { AlertWordsRegisterSections } from './alert-words/alert-words.register';
import { UserGroupsClientEvents } from './user-groups/user-groups.client-events';
import { UserGroupsRegisterSections } from './user-groups/user-groups.register';
import { PushDevicesClientEvents } from './push-devices/push-devices.client-events';
import { PushDevicesRegisterSections } from './push-devices/push-devices.register';

/**
 * The one registration line per area for what every area may contribute to shared lists: its
 * client events (`<area>/<area>.client-events.ts`) and its /register sections
 * (`<area>/<area>.register.ts`). ApplicationModule provides them; see docs/adding-an-area.md.
 */
export const CLIENT_EVENT_AREAS: Type<AreaClientEvents>[] = [
  RealmsClientEvents,
  UsersClientEvents,
  ChannelsClientEvents,
  SubscriptionsClientEvents,
  SubscriptionPropertiesClientEvents,
  MessagesClientEvents,
  ScheduledMessagesClientEvents,
  UploadsClientEvents,
  RealmEmojiClientEvents,
  CustomProfileFieldsClientEvents,
  ChannelFoldersClientEvents,
  SavedSnippetsClientEvents,
  SettingsClientEvents,
  MutedUsersClientEvents,
  UserStatusClientEvents,
  DraftsClientEvents,
  PresenceClientEvents,
  ReactionsClientEvents,
  SubmessagesClientEvents,
  LinkifiersClientEvents,
  RealmPlaygroundsClientEvents,
  AlertWordsClientEvents,
  UserGroupsClientEvents,
  PushDevicesClientEvents,
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
  PresenceRegisterSections,
  LinkifiersRegisterSections,
  RealmPlaygroundsRegisterSections,
  AlertWordsRegisterSections,
  UserGroupsRegisterSections,
  PushDevicesRegisterSections,
];
