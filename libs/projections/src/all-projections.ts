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

/** Every read model of the product. A new area registers its projections here. */
export const ALL_PROJECTIONS: Projection[] = [
  realmsProjection,
  usersProjection,
  credentialsProjection,
  channelsProjection,
  subscriptionsProjection,
  channelMembersProjection,
  messagesProjection,
  userTopicsProjection,
  userSettingsProjection,
  emailChangesProjection,
  userStatusProjection,
  draftsProjection,
  scheduledMessagesProjection,
  savedSnippetsProjection,
  mutedUsersProjection,
  botStorageProjection,
  channelFoldersProjection,
  customProfileFieldsProjection,
  customProfileValuesProjection,
  realmEmojiProjection,
  pushRegistrationsProjection,
  attachmentsProjection,
  uploadSpaceProjection,
  reactionsProjection,
  submessagesProjection,
  linkifiersProjection,
  realmPlaygroundsProjection,
  alertWordsProjection,
  userGroupsProjection,
];
