import { Inject, Injectable } from '@nestjs/common';
import {
  type ChannelCreated,
  type ChannelDeactivated,
  type ChannelDescriptionChanged,
  type ChannelFolderChanged,
  type ChannelNameChanged,
  type ChannelPermissionChanged,
  type BotOwnerChanged,
  type ChannelReactivated,
  type RealmDeactivated,
  type CustomProfileFieldValueChanged,
  type CustomProfileFieldValueRemoved,
  ROLE_VALUES,
  type UserEmailChanged,
  type UserCreated,
  type UserDeactivated,
  type UserFullNameChanged,
  type UserReactivated,
  type UserRoleChanged,
} from '@app/domain';
import { ChannelQueries } from '../../channels/channel-queries';
import { ChannelViews } from '../../channels/channel-views';
import type { ReadStorePort } from '../../ports/read-store.port';
import { READ_STORE } from '../../ports/tokens';
import { SubscriptionQueries } from '../../subscriptions/subscription-queries';
import { formatUser } from '../../users/user-format';
import { USERS, type UserDocument } from '../../users/user.documents';
import type { AreaClientEvents } from '../area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../client-event-mappers';


/**
 * `realm_user` (zerver/actions/create_user.py, users.py, user_settings.py) and `stream`
 * (zerver/actions/streams.py) events for the users and channels that exist today.
 */
@Injectable()
export class UsersChannelsClientEventMappers implements AreaClientEvents {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly channels: ChannelQueries,
    private readonly channelViews: ChannelViews,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      UserCreated: (e: Recorded<UserCreated>, c) => this.userAdded(e.data.realmId, e.data.userId, c),
      UserFullNameChanged: (e: Recorded<UserFullNameChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, full_name: e.data.newName }, c),
      UserRoleChanged: (e: Recorded<UserRoleChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, role: ROLE_VALUES[e.data.newRole] }, c),
      // Since feature level 222 deactivation and reactivation are `update`s of is_active.
      UserDeactivated: (e: Recorded<UserDeactivated>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, is_active: false }, c),
      UserReactivated: (e: Recorded<UserReactivated>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, is_active: true }, c),
      // notify_user_update_custom_profile_data.
      CustomProfileFieldValueChanged: (e: Recorded<CustomProfileFieldValueChanged>, c) =>
        this.personUpdate(e.data.realmId, {
          user_id: e.data.userId,
          custom_profile_field: { id: e.data.fieldId, value: e.data.newValue, ...(e.data.renderedValue !== null ? { rendered_value: e.data.renderedValue } : {}) },
        }, c),
      CustomProfileFieldValueRemoved: (e: Recorded<CustomProfileFieldValueRemoved>, c) =>
        this.personUpdate(e.data.realmId, { user_id: e.data.userId, custom_profile_field: { id: e.data.fieldId, value: null } }, c),
      UserEmailChanged: (e: Recorded<UserEmailChanged>, c) => this.emailChanged(e, c),
      // do_change_bot_owner's realm_user update (its realm_bot events need bot state in /register).
      BotOwnerChanged: (e: Recorded<BotOwnerChanged>, c) => this.personUpdate(e.data.realmId, { user_id: e.data.userId, bot_owner_id: e.data.newOwnerId }, c),
      // do_deactivate_realm: clients log out on it.
      RealmDeactivated: async (e: Recorded<RealmDeactivated>, c) => [
        { userIds: await c.activeUserIds(e.data.realmId), event: { type: 'realm', op: 'deactivated', realm_id: e.data.realmId } },
      ],
      ChannelCreated: (e: Recorded<ChannelCreated>, c) => this.streamCreated(e.data.realmId, e.data.channelId, c),
      ChannelNameChanged: (e: Recorded<ChannelNameChanged>, c) => this.streamUpdate(e.data.realmId, e.data.channelId, e.data.oldName, { property: 'name', value: e.data.newName }, c),
      ChannelDescriptionChanged: (e: Recorded<ChannelDescriptionChanged>, c) =>
        this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'description', value: e.data.newDescription, rendered_description: e.data.renderedDescription }, c),
      ChannelPermissionChanged: (e: Recorded<ChannelPermissionChanged>, c) =>
        this.streamUpdate(e.data.realmId, e.data.channelId, null, {
          property: 'invite_only',
          value: e.data.new.inviteOnly,
          history_public_to_subscribers: e.data.new.historyPublicToSubscribers,
          is_web_public: e.data.new.isWebPublic,
        }, c),
      ChannelFolderChanged: (e: Recorded<ChannelFolderChanged>, c) => this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'folder_id', value: e.data.newFolderId }, c),
      // Since feature level 315 archiving is an `update` of is_archived.
      ChannelDeactivated: (e: Recorded<ChannelDeactivated>, c) => this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'is_archived', value: true }, c),
      ChannelReactivated: (e: Recorded<ChannelReactivated>, c) => this.streamUpdate(e.data.realmId, e.data.channelId, null, { property: 'is_archived', value: false }, c),
    };
  }

  /** notify_created_user: the new user as each viewer sees them (delivery_email depends on the viewer). */
  private async userAdded(realmId: number, userId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const user = await this.readStore.get<UserDocument>(USERS, String(userId));
    if (!user) return [];
    const viewers = await this.activeUsers(realmId);
    // A new user has no profile data yet (Zulip's add event carries the empty dict).
    const event = { type: 'realm_user', op: 'add', person: formatUser(user, null, { profileData: {} }) };
    return [
      {
        userIds: await c.activeUserIds(realmId),
        event,
        perUser: (viewerId) => {
          const viewer = viewers.get(viewerId);
          return viewer ? { ...event, person: formatUser(user, { realmId, userId: viewerId, role: viewer.role_name, isBot: viewer.is_bot }, { profileData: {} }) } : event;
        },
      },
    ];
  }

  /**
   * do_change_user_delivery_email: `delivery_email` to the viewers who may see it, and `new_email`
   * to everyone when the email the API shows changed with it.
   */
  private async emailChanged(e: Recorded<UserEmailChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const user = await this.readStore.get<UserDocument>(USERS, String(d.userId));
    if (!user) return [];
    const viewers = await this.activeUsers(d.realmId);
    const out: ClientEventDelivery[] = [];
    const seeing = [...viewers.values()].filter(
      (v) => formatUser(user, { realmId: d.realmId, userId: v.user_id, role: v.role_name, isBot: v.is_bot }).delivery_email !== null,
    );
    out.push({ userIds: seeing.map((v) => v.user_id), event: { type: 'realm_user', op: 'update', person: { user_id: d.userId, delivery_email: user.delivery_email } } });
    if (user.email === d.newEmail) {
      out.push({ userIds: await c.activeUserIds(d.realmId), event: { type: 'realm_user', op: 'update', person: { user_id: d.userId, new_email: user.email } } });
    }
    return out;
  }

  private async personUpdate(realmId: number, person: Record<string, unknown>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return [{ userIds: await c.activeUserIds(realmId), event: { type: 'realm_user', op: 'update', person } }];
  }

  private async activeUsers(realmId: number): Promise<Map<number, UserDocument>> {
    const users = await this.readStore.find<UserDocument>(USERS, { where: { realm_id: realmId, is_active: true } });
    return new Map(users.map((u) => [u.user_id, u]));
  }

  /** Who may see a channel's metadata: everyone but guests for a public one; its subscribers and administrators otherwise. */
  private async audience(realmId: number, channelId: number): Promise<number[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    const users = [...(await this.activeUsers(realmId)).values()];
    const subscribers = new Set(await this.subscriptions.subscriberIds(realmId, channelId));
    return users
      .filter((u) => subscribers.has(u.user_id) || (channel.invite_only ? u.is_admin || u.is_owner : !u.is_guest))
      .map((u) => u.user_id);
  }

  private async streamCreated(realmId: number, channelId: number, _c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    const [stream] = await this.channelViews.streams(realmId, [channel]);
    return [{ userIds: await this.audience(realmId, channelId), event: { type: 'stream', op: 'create', streams: [stream] } }];
  }

  /** do_rename_stream, do_change_stream_description, …: `name` is the channel's name before the change. */
  private async streamUpdate(
    realmId: number,
    channelId: number,
    name: string | null,
    fields: Record<string, unknown>,
    _c: ClientEventMapperContext,
  ): Promise<ClientEventDelivery[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    return [{ userIds: await this.audience(realmId, channelId), event: { type: 'stream', op: 'update', stream_id: channelId, name: name ?? channel.name, ...fields } }];
  }
}
