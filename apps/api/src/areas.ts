import type { AreaName } from '@app/application';
import type { AreaOpenApi } from './openapi/schema-helpers';
import { channelsOpenApi } from './channels/channels.openapi';
import { subscriptionPropertiesOpenApi } from './subscription-properties/subscription-properties.openapi';
import { messagesOpenApi } from './messages/messages.openapi';
import { scheduledMessagesOpenApi } from './scheduled-messages/scheduled-messages.openapi';
import { uploadsOpenApi } from './uploads/uploads.openapi';
import { realmEmojiOpenApi } from './realm-emoji/realm-emoji.openapi';
import { customProfileFieldsOpenApi } from './custom-profile-fields/custom-profile-fields.openapi';
import { channelFoldersOpenApi } from './channel-folders/channel-folders.openapi';
import { savedSnippetsOpenApi } from './saved-snippets/saved-snippets.openapi';
import { settingsOpenApi } from './settings/settings.openapi';
import { mutedUsersOpenApi } from './muted-users/muted-users.openapi';
import { userStatusOpenApi } from './user-status/user-status.openapi';
import { draftsOpenApi } from './drafts/drafts.openapi';
import { submessagesOpenApi } from './submessages/submessages.openapi';
import { realmPlaygroundsOpenApi } from './realm-playgrounds/realm-playgrounds.openapi';
import { pushDevicesOpenApi } from './push-devices/push-devices.openapi';
import { botStorageOpenApi } from './bot-storage/bot-storage.openapi';
import { invitationsOpenApi } from './invitations/invitations.openapi';

/**
 * What each area (AREAS, libs/application/src/areas.ts) adds to the HTTP app's shared lists, under
 * its name: an area joining AREAS is a compile error here until it has its entry (`{}` for none).
 * Today that is its OpenAPI response schemas (`<area>/<area>.openapi.ts`, combined by
 * openapi/response-schemas.ts).
 */
export const API_AREAS: { readonly [Area in AreaName]: { openApi?: AreaOpenApi } } = {
  realms: {},
  email: {},
  users: {},
  channels: { openApi: channelsOpenApi },
  subscriptions: {},
  'subscription-properties': { openApi: subscriptionPropertiesOpenApi },
  messages: { openApi: messagesOpenApi },
  'scheduled-messages': { openApi: scheduledMessagesOpenApi },
  uploads: { openApi: uploadsOpenApi },
  'realm-emoji': { openApi: realmEmojiOpenApi },
  'custom-profile-fields': { openApi: customProfileFieldsOpenApi },
  'channel-folders': { openApi: channelFoldersOpenApi },
  'saved-snippets': { openApi: savedSnippetsOpenApi },
  settings: { openApi: settingsOpenApi },
  'muted-users': { openApi: mutedUsersOpenApi },
  'user-status': { openApi: userStatusOpenApi },
  drafts: { openApi: draftsOpenApi },
  presence: {},
  reactions: {},
  submessages: { openApi: submessagesOpenApi },
  linkifiers: {},
  'realm-playgrounds': { openApi: realmPlaygroundsOpenApi },
  'alert-words': {},
  'user-groups': {},
  'push-devices': { openApi: pushDevicesOpenApi },
  'bot-storage': { openApi: botStorageOpenApi },
  'email-notifications': {},
  invitations: { openApi: invitationsOpenApi },
};
