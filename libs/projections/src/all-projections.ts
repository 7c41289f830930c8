import { AREAS, type AreaName } from '@app/application';
import type { Projection } from './shared/projection';
import { realmsProjection } from './realms/realms.projection';
import { credentialsProjection, usersProjection } from './users/users.projection';
import { channelsProjection } from './channels/channels.projection';
import { channelMembersProjection, subscriptionsProjection } from './subscriptions/subscriptions.projection';
import { messagesProjection, userTopicsProjection } from './messages/messages.projection';
import { emailChangesProjection, userSettingsProjection } from './settings/user-settings.projection';
import { userStatusProjection } from './user-status/user-status.projection';
import { draftsProjection } from './drafts/drafts.projection';
import { scheduledMessagesProjection } from './scheduled-messages/scheduled-messages.projection';
import { savedSnippetsProjection } from './saved-snippets/saved-snippets.projection';
import { mutedUsersProjection } from './muted-users/muted-users.projection';
import { alertWordsProjection } from './alert-words/alert-words.projection';
import { botStorageProjection } from './bot-storage/bot-storage.projection';
import { invitationsProjection } from './invitations/invitations.projection';
import { channelFoldersProjection } from './channel-folders/channel-folders.projection';
import { customProfileFieldsProjection } from './custom-profile-fields/custom-profile-fields.projection';
import { customProfileValuesProjection } from './custom-profile-fields/custom-profile-values.projection';
import { realmEmojiProjection } from './realm-emoji/realm-emoji.projection';
import { pushRegistrationsProjection } from './push-devices/push-registrations.projection';
import { attachmentsProjection, uploadSpaceProjection } from './uploads/attachments.projection';
import { reactionsProjection } from './reactions/reactions.projection';
import { submessagesProjection } from './submessages/submessages.projection';
import { linkifiersProjection } from './linkifiers/linkifiers.projection';
import { realmPlaygroundsProjection } from './realm-playgrounds/realm-playgrounds.projection';
import { userGroupsProjection } from './user-groups/user-groups.projection';

/**
 * The read models of each area (AREAS, libs/application/src/areas.ts), under its name: an area
 * joining AREAS is a compile error here until it has its entry (`[]` for none). The projector of
 * the user messages (messages/user-messages.projection.ts) is a bulk projection of its own.
 */
export const PROJECTIONS_BY_AREA: { readonly [Area in AreaName]: readonly Projection[] } = {
  realms: [realmsProjection],
  email: [],
  users: [usersProjection, credentialsProjection],
  channels: [channelsProjection],
  subscriptions: [subscriptionsProjection, channelMembersProjection],
  'subscription-properties': [],
  messages: [messagesProjection, userTopicsProjection],
  'scheduled-messages': [scheduledMessagesProjection],
  uploads: [attachmentsProjection, uploadSpaceProjection],
  'realm-emoji': [realmEmojiProjection],
  'custom-profile-fields': [customProfileFieldsProjection, customProfileValuesProjection],
  'channel-folders': [channelFoldersProjection],
  'saved-snippets': [savedSnippetsProjection],
  settings: [userSettingsProjection, emailChangesProjection],
  'muted-users': [mutedUsersProjection],
  'user-status': [userStatusProjection],
  drafts: [draftsProjection],
  presence: [],
  reactions: [reactionsProjection],
  submessages: [submessagesProjection],
  linkifiers: [linkifiersProjection],
  'realm-playgrounds': [realmPlaygroundsProjection],
  'alert-words': [alertWordsProjection],
  'user-groups': [userGroupsProjection],
  'push-devices': [pushRegistrationsProjection],
  'bot-storage': [botStorageProjection],
  'email-notifications': [],
  invitations: [invitationsProjection],
};

/** Every read model of the product, area by area in the order of AREAS. */
export const ALL_PROJECTIONS: Projection[] = AREAS.flatMap((area) => PROJECTIONS_BY_AREA[area.name]);
