import type { Provider } from '@nestjs/common';
import { ChannelQueries } from './channel.queries';
import { ChannelLookups } from './channel-lookups.queries';
import { ChannelViews } from './channel-views';
import { DeactivateChannelHandler } from './deactivate-channel.handler';
import { UpdateChannelHandler } from './update-channel.handler';
import { AddDefaultChannelHandler, RemoveDefaultChannelHandler } from './default-channels.handler';

/**
 * The channels area's handlers and queries, registered by ApplicationModule (moving a channel into
 * a folder is registered with the channel-folders area). Channels are created by subscribing.
 */
export const CHANNELS_HANDLERS: Provider[] = [UpdateChannelHandler, DeactivateChannelHandler, AddDefaultChannelHandler, RemoveDefaultChannelHandler];
export const CHANNELS_QUERIES: Provider[] = [ChannelQueries, ChannelViews, ChannelLookups];
