import { Injectable } from '@nestjs/common';
import { ChannelSubscribers } from './channel-subscribers';
import type { ChannelDocument } from './channel.documents';
import { formatStream, type ApiStream } from './channel-format';
import { SystemGroupIds } from '../shared/system-group-ids';

/** Channel documents as the API's stream objects, with the organization's group ids and live subscriber counts. */
@Injectable()
export class ChannelViews {
  constructor(
    private readonly groupIds: SystemGroupIds,
    private readonly subscriptions: ChannelSubscribers,
  ) {}

  async streams(realmId: number, channels: ChannelDocument[]): Promise<ApiStream[]> {
    const [groupIds, deactivated] = await Promise.all([
      this.groupIds.forRealm(realmId),
      this.subscriptions.deactivatedSubscriptionCounts(realmId, channels.map((c) => c.stream_id)),
    ]);
    return channels.map((channel) =>
      formatStream(channel, { groupIds, subscriberCount: channel.subscriber_count - (deactivated.get(channel.stream_id) ?? 0) }),
    );
  }

  async stream(realmId: number, channel: ChannelDocument): Promise<ApiStream> {
    const [stream] = await this.streams(realmId, [channel]);
    return stream;
  }
}
