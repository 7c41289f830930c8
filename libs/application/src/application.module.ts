import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DeciderCommands } from './shared/decider-command-handler';
import { DeciderRunner } from './shared/decider-runner';
import { REALMS_HANDLERS, REALMS_QUERIES } from './realms/realms.providers';
import { USERS_HANDLERS, USERS_QUERIES } from './users/users.providers';
import { CHANNELS_HANDLERS, CHANNELS_QUERIES } from './channels/channels.providers';
import { ChannelTopics } from './channels/channel-topics';
import { ChannelDescriptionRenderer } from './channels/channel-description.renderer';
import { ConventionalSystemGroupIds, SystemGroupIds } from './channels/system-group-ids';
import { SUBSCRIPTIONS_HANDLERS, SUBSCRIPTIONS_QUERIES } from './subscriptions/subscriptions.providers';
import { MESSAGES_HANDLERS, MESSAGES_QUERIES } from './messages/messages.providers';
import { MarkdownChannelDescriptionRenderer, MessageChannelTopics } from './messages/message-channel-topics';

import { SETTINGS_HANDLERS, SETTINGS_QUERIES } from './settings/settings.providers';
import { SUBSCRIPTION_PROPERTIES_HANDLERS } from './subscription-properties/subscription-properties.providers';
import { USER_STATUS_HANDLERS, USER_STATUS_QUERIES } from './user-status/user-status.providers';
import { DRAFTS_HANDLERS, DRAFTS_QUERIES } from './drafts/drafts.providers';
import { PRESENCE_HANDLERS, PRESENCE_QUERIES } from './presence/presence.providers';
import { SCHEDULED_MESSAGES_HANDLERS, SCHEDULED_MESSAGES_QUERIES } from './scheduled-messages/scheduled-messages.providers';
import { SAVED_SNIPPETS_HANDLERS, SAVED_SNIPPETS_QUERIES } from './saved-snippets/saved-snippets.providers';
import { MUTED_USERS_HANDLERS, MUTED_USERS_QUERIES } from './muted-users/muted-users.providers';
import { ALERT_WORDS_HANDLERS, ALERT_WORDS_QUERIES } from './alert-words/alert-words.providers';
import { BOT_STORAGE_HANDLERS, BOT_STORAGE_QUERIES } from './bot-storage/bot-storage.providers';

import { CHANNEL_FOLDERS_HANDLERS, CHANNEL_FOLDERS_QUERIES } from './channel-folders/channel-folders.providers';
import { CUSTOM_PROFILE_FIELDS_HANDLERS, CUSTOM_PROFILE_FIELDS_QUERIES } from './custom-profile-fields/custom-profile-fields.providers';
import { REALM_EMOJI_HANDLERS, REALM_EMOJI_QUERIES } from './realm-emoji/realm-emoji.providers';
import { LINKIFIERS_HANDLERS, LINKIFIERS_QUERIES } from './linkifiers/linkifiers.providers';
import { REALM_PLAYGROUNDS_HANDLERS, REALM_PLAYGROUNDS_QUERIES } from './realm-playgrounds/realm-playgrounds.providers';
import { PUSH_DEVICES_HANDLERS, PUSH_DEVICES_QUERIES } from './push-devices/push-devices.providers';
import { UPLOADS_HANDLERS, UPLOADS_QUERIES } from './uploads/uploads.providers';
import { REACTIONS_HANDLERS, REACTIONS_QUERIES } from './reactions/reactions.providers';
import { SUBMESSAGES_HANDLERS, SUBMESSAGES_QUERIES } from './submessages/submessages.providers';
import { USER_GROUPS_HANDLERS, USER_GROUPS_QUERIES } from './user-groups/user-groups.providers';
import { CLIENT_EVENT_AREAS, REGISTER_SECTION_AREAS } from './areas';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { ClientEventMappers } from './events/client-event-registry';
import { REGISTER_SECTIONS, RegisterState } from './events/register-state';
import { AuditHistory } from './operations/audit-history';

/**
 * Seams the channels area declares and other areas fill: the messaging core binds its Markdown
 * renderer and its topics read model (CHANNEL_SEAMS below); a user-groups area may bind its own
 * system group ids in place of the conventional numbering.
 */
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
  providers: [DeciderRunner, DeciderCommands, AuditHistory, ...AREA_CONTRIBUTIONS, ...REALMS_HANDLERS, ...REALMS_QUERIES, ...USERS_HANDLERS, ...USERS_QUERIES, ...CHANNELS_HANDLERS, ...CHANNELS_QUERIES, ...SUBSCRIPTIONS_HANDLERS, ...SUBSCRIPTIONS_QUERIES, ...CHANNEL_SEAMS, ...MESSAGES_HANDLERS, ...MESSAGES_QUERIES, ...SETTINGS_HANDLERS, ...SETTINGS_QUERIES, ...SUBSCRIPTION_PROPERTIES_HANDLERS, ...USER_STATUS_HANDLERS, ...USER_STATUS_QUERIES, ...DRAFTS_HANDLERS, ...DRAFTS_QUERIES, ...PRESENCE_HANDLERS, ...PRESENCE_QUERIES, ...SCHEDULED_MESSAGES_HANDLERS, ...SCHEDULED_MESSAGES_QUERIES, ...SAVED_SNIPPETS_HANDLERS, ...SAVED_SNIPPETS_QUERIES, ...MUTED_USERS_HANDLERS, ...MUTED_USERS_QUERIES, ...BOT_STORAGE_HANDLERS, ...BOT_STORAGE_QUERIES, ...CHANNEL_FOLDERS_HANDLERS, ...CHANNEL_FOLDERS_QUERIES, ...CUSTOM_PROFILE_FIELDS_HANDLERS, ...CUSTOM_PROFILE_FIELDS_QUERIES, ...REALM_EMOJI_HANDLERS, ...REALM_EMOJI_QUERIES, ...PUSH_DEVICES_HANDLERS, ...PUSH_DEVICES_QUERIES, ...UPLOADS_HANDLERS, ...UPLOADS_QUERIES, ...REACTIONS_HANDLERS, ...REACTIONS_QUERIES, ...LINKIFIERS_HANDLERS, ...LINKIFIERS_QUERIES, ...REALM_PLAYGROUNDS_HANDLERS, ...REALM_PLAYGROUNDS_QUERIES, ...ALERT_WORDS_HANDLERS, ...ALERT_WORDS_QUERIES, ...USER_GROUPS_HANDLERS, ...USER_GROUPS_QUERIES, ...SUBMESSAGES_HANDLERS, ...SUBMESSAGES_QUERIES],
  exports: [CqrsModule, DeciderRunner, AuditHistory, ClientEventMappers, RegisterState, ...REALMS_QUERIES, ...USERS_QUERIES, ...CHANNELS_QUERIES, ...SUBSCRIPTIONS_QUERIES, ChannelDescriptionRenderer, ChannelTopics, SystemGroupIds, ...MESSAGES_QUERIES, ...SETTINGS_QUERIES, ...USER_STATUS_QUERIES, ...DRAFTS_QUERIES, ...PRESENCE_QUERIES, ...SCHEDULED_MESSAGES_QUERIES, ...SAVED_SNIPPETS_QUERIES, ...MUTED_USERS_QUERIES, ...BOT_STORAGE_QUERIES, ...CHANNEL_FOLDERS_QUERIES, ...CUSTOM_PROFILE_FIELDS_QUERIES, ...REALM_EMOJI_QUERIES, ...PUSH_DEVICES_QUERIES, ...UPLOADS_QUERIES, ...REACTIONS_QUERIES, ...LINKIFIERS_QUERIES, ...REALM_PLAYGROUNDS_QUERIES, ...ALERT_WORDS_QUERIES, ...USER_GROUPS_QUERIES, ...SUBMESSAGES_QUERIES],
})
export class ApplicationModule {}
