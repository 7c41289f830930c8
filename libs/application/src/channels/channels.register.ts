import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { ChannelQueries } from './channel.queries';
import { ChannelViews } from './channel-views';

/**
 * `stream`: the channels the user can see (Zulip's `streams`; archived ones are left out).
 * `default_streams`: `realm_default_streams`, the ids of the default channels; guests get `[]`,
 * as Zulip pretends to them that the organization has none.
 */
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
          // Every unarchived channel whose metadata the user may see (do_get_streams include_all): an
          // administrator's includes the private channels they are not subscribed to.
          streams: await this.channelViews.streams(actor.realmId, await this.channels.streamsFor(actor, { includeAll: true })),
        }),
      },
      {
        fetchType: 'default_streams',
        read: async (actor) => ({ realm_default_streams: actor.role === 'guest' ? [] : await this.channels.defaultChannelIds(actor.realmId) }),
      },
    ];
  }
}
