import type { Type } from '@nestjs/common';
import type { AreaDescriptor, IdSequence } from './area-descriptor';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { realmsArea } from './realms/realms.area';
import { emailArea } from './email/email.area';
import { usersArea } from './users/users.area';
import { channelsArea } from './channels/channels.area';
import { subscriptionsArea } from './subscriptions/subscriptions.area';
import { subscriptionPropertiesArea } from './subscription-properties/subscription-properties.area';
import { messagesArea } from './messages/messages.area';
import { scheduledMessagesArea } from './scheduled-messages/scheduled-messages.area';
import { uploadsArea } from './uploads/uploads.area';
import { realmEmojiArea } from './realm-emoji/realm-emoji.area';
import { customProfileFieldsArea } from './custom-profile-fields/custom-profile-fields.area';
import { channelFoldersArea } from './channel-folders/channel-folders.area';
import { savedSnippetsArea } from './saved-snippets/saved-snippets.area';
import { settingsArea } from './settings/settings.area';
import { mutedUsersArea } from './muted-users/muted-users.area';
import { userStatusArea } from './user-status/user-status.area';
import { draftsArea } from './drafts/drafts.area';
import { presenceArea } from './presence/presence.area';
import { reactionsArea } from './reactions/reactions.area';
import { submessagesArea } from './submessages/submessages.area';
import { linkifiersArea } from './linkifiers/linkifiers.area';
import { realmPlaygroundsArea } from './realm-playgrounds/realm-playgrounds.area';
import { alertWordsArea } from './alert-words/alert-words.area';
import { userGroupsArea } from './user-groups/user-groups.area';
import { pushDevicesArea } from './push-devices/push-devices.area';
import { botStorageArea } from './bot-storage/bot-storage.area';
import { emailNotificationsArea } from './email-notifications/email-notifications.area';
import { invitationsArea } from './invitations/invitations.area';

/**
 * Every area of the product, one line each (`<area>/<area>.area.ts`): the one list a new area
 * joins in this layer. ApplicationModule's providers and exports, the client events, the /register
 * sections and the id sequences below are built from it; the projections and the HTTP app keep
 * one entry per area name (libs/projections/src/areas.ts, apps/api/src/areas.ts), which the
 * compiler asks for once a name is here. See docs/adding-an-area.md.
 *
 * The order is the order client events of one domain event are sent in when several areas map it.
 */
export const AREAS = [
  realmsArea,
  emailArea,
  usersArea,
  channelsArea,
  subscriptionsArea,
  subscriptionPropertiesArea,
  messagesArea,
  scheduledMessagesArea,
  uploadsArea,
  realmEmojiArea,
  customProfileFieldsArea,
  channelFoldersArea,
  savedSnippetsArea,
  settingsArea,
  mutedUsersArea,
  userStatusArea,
  draftsArea,
  presenceArea,
  reactionsArea,
  submessagesArea,
  linkifiersArea,
  realmPlaygroundsArea,
  alertWordsArea,
  userGroupsArea,
  pushDevicesArea,
  botStorageArea,
  emailNotificationsArea,
  invitationsArea,
] as const satisfies readonly AreaDescriptor[];

/** An area's name: the key of its entries in the projections' and the HTTP app's per-area records. */
export type AreaName = (typeof AREAS)[number]['name'];

const all: readonly AreaDescriptor[] = AREAS;

/** The areas' client events (ClientEventMappers). */
export const CLIENT_EVENT_AREAS: Type<AreaClientEvents>[] = all.flatMap((area) => (area.clientEvents ? [area.clientEvents] : []));

/** The areas' /register sections (RegisterState). */
export const REGISTER_SECTION_AREAS: Type<AreaRegisterSections>[] = all.flatMap((area) => (area.registerSections ? [area.registerSections] : []));

/** Event payload key → the id sequence its numbers come from (collectIds). */
export const ID_SEQUENCES: ReadonlyMap<string, IdSequence> = new Map(all.flatMap((area) => (area.idSequences ?? []).flatMap((s) => s.fields.map((field) => [field, s] as const))));
