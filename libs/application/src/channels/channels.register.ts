import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { ChannelQueries } from './channel.queries';
import { ChannelViews } from './channel-views';

/** `stream`: the channels the user can see (Zulip's `streams`; archived ones are left out). */
@Injectable()
export class ChannelsRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly channelViews: ChannelViews,
  ) {}

  registerSections(): RegisterSection[] {
    return [
      {
        fetchType: 'stream',
        read: async (actor) => ({
          streams: await this.channelViews.streams(actor.realmId, (await this.channels.channelsVisibleTo(actor)).filter((c) => !c.is_archived)),
        }),
      },
    ];
  }
}
