import { CHANNEL_EVENT_TYPES, channelsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { RealmChannels } from '../realms/realm-channels';
import { ChannelQueries } from './channel.queries';
import { ChannelLookups } from './channel-lookups.queries';
import { ChannelViews } from './channel-views';
import { DeactivateChannelHandler } from './deactivate-channel.handler';
import { UpdateChannelHandler } from './update-channel.handler';
import { AddDefaultChannelHandler, RemoveDefaultChannelHandler } from './default-channels.handler';
import { ConventionalSystemGroupIds, SystemGroupIds } from '../shared/system-group-ids';
import { ChannelsClientEvents } from './channels.client-events';
import { ChannelsRegisterSections } from './channels.register';

/**
 * The system group ids (shared/system-group-ids.ts) in the conventional numbering: a user-groups
 * area may bind its own in their place. The realms area's seam RealmChannels: the channels read
 * model. The channels area's own seams (ChannelDescriptionRenderer, ChannelTopics) are bound and
 * exported by the messages area.
 */
const seams = [
  { provide: SystemGroupIds, useClass: ConventionalSystemGroupIds },
  { provide: RealmChannels, useExisting: ChannelQueries },
];
const queries = [ChannelQueries, ChannelViews, ChannelLookups];

/**
 * Channels: settings, deactivation, default channels (moving a channel into a folder, on the
 * channels decider, lives in the channel-folders area: channel-folders/change-channel-folder.*). Channels are created by subscribing: the subscriptions area
 * allocates their ids.
 */
export const channelsArea = defineArea({
  name: 'channels',
  providers: [UpdateChannelHandler, DeactivateChannelHandler, AddDefaultChannelHandler, RemoveDefaultChannelHandler, ...queries, ...seams],
  exports: [...queries, SystemGroupIds],
  clientEvents: ChannelsClientEvents,
  registerSections: ChannelsRegisterSections,
  deciders: [channelsDecider],
  events: CHANNEL_EVENT_TYPES,
  idSequences: [{ sequence: 'channel', fields: ['channelId', 'streamId'] }],
});
