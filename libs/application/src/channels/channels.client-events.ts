import { Injectable } from '@nestjs/common';
import {
  hasMetadataAccess,
  type ChannelCreated,
  type ChannelDeactivated,
  type ChannelDescriptionChanged,
  type ChannelFolderChanged,
  type ChannelMessageRetentionDaysChanged,
  type ChannelTopicsPolicyChanged,
  type ChannelNameChanged,
  type ChannelPermissionChanged,
  type ChannelReactivated,
  type DefaultChannelAdded,
  type DefaultChannelRemoved,
} from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { ChannelSubscribers } from './channel-subscribers';
import { UserQueries } from '../users/user.queries';
import { ChannelQueries } from './channel.queries';
import { accessFactsOf } from './channel-format';
import { ChannelViews } from './channel-views';

/** `stream` events (zerver/actions/streams.py) to those who may see the channel. */
@Injectable()
export class ChannelsClientEvents implements AreaClientEvents {
  constructor(
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly channelViews: ChannelViews,
    private readonly subscriptions: ChannelSubscribers,
  ) {}

  clientEvents(): ClientEventMapperList {
    return {
      // do_create_stream's send_stream_creation_event: those who may see any such channel (non-guests
      // for a public one, administrators for a private one). Its first subscribers who may not get it
      // from their subscription (SubscriptionsClientEvents), as bulk_add_subscriptions does.
      ChannelCreated: (e: Recorded<ChannelCreated>) => this.streamCreated(e.data.realmId, e.data.channelId, false),
      ChannelNameChanged: (e: Recorded<ChannelNameChanged>) => this.streamUpdate(e.data.realmId, e.data.channelId, e.data.oldName, { property: 'name', value: e.data.newName }),
      ChannelDescriptionChanged: (e: Recorded<ChannelDescriptionChanged>) =>
        this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'description', value: e.data.newDescription, rendered_description: e.data.renderedDescription }),
      ChannelPermissionChanged: (e: Recorded<ChannelPermissionChanged>) =>
        this.streamUpdate(e.data.realmId, e.data.channelId, null, {
          property: 'invite_only',
          value: e.data.new.inviteOnly,
          history_public_to_subscribers: e.data.new.historyPublicToSubscribers,
          is_web_public: e.data.new.isWebPublic,
        }),
      ChannelFolderChanged: (e: Recorded<ChannelFolderChanged>) => this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'folder_id', value: e.data.newFolderId }),
      // do_set_stream_property("topics_policy"): the new value by its API name.
      ChannelTopicsPolicyChanged: (e: Recorded<ChannelTopicsPolicyChanged>) =>
        this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'topics_policy', value: e.data.newPolicy }),
      // do_change_stream_message_retention_days: the value as stored (null: the organization's, -1: forever).
      ChannelMessageRetentionDaysChanged: (e: Recorded<ChannelMessageRetentionDaysChanged>) =>
        this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'message_retention_days', value: e.data.newValue }),
      // do_deactivate_stream: an `update` of is_archived (feature level 315), then
      // send_stream_deletion_event(for_archiving=True): `delete` for clients without the
      // archived_channels capability, which this server does not offer (/register leaves archived
      // channels out), so for every client, as Zulip does for the mobile app.
      ChannelDeactivated: async (e: Recorded<ChannelDeactivated>) => {
        const updates = await this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'is_archived', value: true });
        const deletion = { type: 'stream', op: 'delete', streams: [{ stream_id: e.data.channelId }], stream_ids: [e.data.channelId] };
        return [...updates, ...updates.map((u) => ({ userIds: u.userIds, event: deletion }))];
      },
      // notify_default_streams: the whole list of default channel ids, to every active user but guests.
      // The list is the one the event recorded: a later change must not show in an earlier event.
      DefaultChannelAdded: (e: Recorded<DefaultChannelAdded>) => this.defaultStreams(e.data.realmId, e.data.defaultChannelIds),
      DefaultChannelRemoved: (e: Recorded<DefaultChannelRemoved>) => this.defaultStreams(e.data.realmId, e.data.defaultChannelIds),
      // do_unarchive_stream: the `update`, then send_stream_creation_event(for_unarchiving=True).
      ChannelReactivated: async (e: Recorded<ChannelReactivated>) => [
        ...(await this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'is_archived', value: false })),
        ...(await this.streamCreated(e.data.realmId, e.data.channelId, true)),
      ],
    };
  }

  /**
   * Who may see a channel's metadata (hasMetadataAccess unsubscribed: everyone but guests for a public
   * one, everyone for a web-public one, administrators and the channel's creator for a private one),
   * and its subscribers (unless `withSubscribers` is false).
   */
  private async audience(realmId: number, channelId: number, withSubscribers = true): Promise<number[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    const users = await this.users.list(realmId, { includeDeactivated: false });
    const subscribers = new Set(withSubscribers ? await this.subscriptions.subscriberIds(realmId, channelId) : []);
    const facts = accessFactsOf(channel);
    return users
      .filter((u) => subscribers.has(u.user_id) || hasMetadataAccess({ userId: u.user_id, role: u.role_name }, facts, false))
      .map((u) => u.user_id);
  }

  private async defaultStreams(realmId: number, defaultChannelIds: number[]): Promise<ClientEventDelivery[]> {
    const users = await this.users.list(realmId, { includeDeactivated: false });
    return [{ userIds: users.filter((u) => !u.is_guest).map((u) => u.user_id), event: { type: 'default_streams', default_streams: [...defaultChannelIds] } }];
  }

  private async streamCreated(realmId: number, channelId: number, withSubscribers: boolean): Promise<ClientEventDelivery[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    const [stream] = await this.channelViews.streams(realmId, [channel]);
    return [{ userIds: await this.audience(realmId, channelId, withSubscribers), event: { type: 'stream', op: 'create', streams: [stream] } }];
  }

  /** do_rename_stream, do_change_stream_description, …: `name` is the channel's name before the change. */
  private async streamUpdate(realmId: number, channelId: number, name: string | null, fields: Record<string, unknown>): Promise<ClientEventDelivery[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    return [{ userIds: await this.audience(realmId, channelId), event: { type: 'stream', op: 'update', stream_id: channelId, name: name ?? channel.name, ...fields } }];
  }
}
