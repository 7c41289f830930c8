import { Inject, Injectable } from '@nestjs/common';
import {
  type ChannelFolderArchived,
  type ChannelFolderCreated,
  type ChannelFolderDescriptionChanged,
  type ChannelFolderNameChanged,
  type ChannelFoldersReordered,
  type ChannelFolderUnarchived,
  flagsList,
  MESSAGE_FLAG_BITS,
  type MessageFlagsChanged,
  type MessageSent,
  type RealmEmojiAdded,
  type RealmEmojiRemoved,
  type RealmGroupSettingChanged,
  type RealmPropertyChanged,
  type SavedSnippetCreated,
  type SavedSnippetDeleted,
  type SavedSnippetEdited,
  type SubscriptionPropertyChanged,
  type SubscriptionsCreated,
  type SubscriptionsDeactivated,
  type SubscriptionsReactivated,
  type UserMuted,
  type UserSettingChanged,
  type UserStatusChanged,
  type UserTopicVisibilityPolicyChanged,
  type UserUnmuted,
  unixSeconds,
} from '@app/domain';
import type { RecordedEvent } from '../../ports/event-store.port';
import type { ReadStorePort } from '../../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../../ports/tokens';
import type { NarrowTerm, UserMessageStorePort } from '../../ports/user-message-store.port';
import { SAVED_SNIPPETS, type SavedSnippetDocument, toApiSavedSnippet } from '../../saved-snippets/saved-snippet.documents';
import { ChannelQueries } from '../../channels/channel-queries';
import { SystemGroupIds } from '../../channels/system-group-ids';
import { CustomProfileFieldQueries } from '../../custom-profile-fields/custom-profile-field-queries';
import { MessageQueries } from '../../messages/get-messages.queries';
import { MutedUserQueries } from '../../muted-users/muted-user-queries';
import { RealmEmojiQueries } from '../../realm-emoji/realm-emoji-queries';
import { SubscriptionQueries } from '../../subscriptions/subscription-queries';
import { SubscriptionViews } from '../../subscriptions/subscription-views';
import { USERS, type UserDocument } from '../../users/user.documents';
import type { AreaClientEvents } from '../area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../client-event-mappers';

const realmWide = async (context: ClientEventMapperContext, realmId: number) => context.activeUserIds(realmId);

/**
 * The client events of every mutation that exists so far, shaped as Zulip's send_event calls
 * (zerver/actions/*.py; schemas in zerver/openapi/zulip.yaml). Each mapper reads the domain event
 * and, where Zulip sends a whole object or list, the read model (which already reflects the event).
 */
@Injectable()
export class CoreClientEventMappers implements AreaClientEvents {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    private readonly messages: MessageQueries,
    private readonly subscriptionViews: SubscriptionViews,
    private readonly subscriptions: SubscriptionQueries,
    private readonly channels: ChannelQueries,
    private readonly groupIds: SystemGroupIds,
    private readonly mutedUsers: MutedUserQueries,
    private readonly realmEmoji: RealmEmojiQueries,
    private readonly profileFields: CustomProfileFieldQueries,
  ) {}

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      // Both read the message store: skipped when no recipient has a queue here.
      MessageSent: (e: Recorded<MessageSent>, c) => (e.data.recipientIds.some((id) => c.hasQueues(id)) ? this.messageSent(e) : []),
      MessageFlagsChanged: (e: Recorded<MessageFlagsChanged>, c) => (c.hasQueues(e.data.userId) ? this.flagsChanged(e) : []),
      UserTopicVisibilityPolicyChanged: (e: Recorded<UserTopicVisibilityPolicyChanged>) => [
        {
          userIds: [e.data.userId],
          event: { type: 'user_topic', stream_id: e.data.streamId, topic_name: e.data.topic, last_updated: unixSeconds(e.data.at), visibility_policy: e.data.newPolicy },
        },
      ],
      SubscriptionsCreated: (e: Recorded<SubscriptionsCreated>, c) => this.subscribed(e.data.realmId, e.data.channelId, e.data.subscriptions.map((s) => s.userId), c),
      SubscriptionsReactivated: (e: Recorded<SubscriptionsReactivated>, c) => this.subscribed(e.data.realmId, e.data.channelId, e.data.userIds, c),
      SubscriptionsDeactivated: (e: Recorded<SubscriptionsDeactivated>, c) => this.unsubscribed(e.data.realmId, e.data.channelId, e.data.userIds, c),
      SubscriptionPropertyChanged: (e: Recorded<SubscriptionPropertyChanged>) => this.subscriptionProperty(e),
      RealmPropertyChanged: (e: Recorded<RealmPropertyChanged>, c) => this.realmProperty(e, c),
      RealmGroupSettingChanged: (e: Recorded<RealmGroupSettingChanged>, c) => this.realmGroupSetting(e, c),
      RealmEmojiAdded: (e: Recorded<RealmEmojiAdded>, c) => this.realmEmojiChanged(e.data.realmId, c),
      RealmEmojiRemoved: (e: Recorded<RealmEmojiRemoved>, c) => this.realmEmojiChanged(e.data.realmId, c),
      CustomProfileFieldCreated: (e: RecordedEvent<string, { realmId: number }>, c) => this.profileFieldsChanged(e.data.realmId, c),
      CustomProfileFieldUpdated: (e: RecordedEvent<string, { realmId: number }>, c) => this.profileFieldsChanged(e.data.realmId, c),
      CustomProfileFieldDeleted: (e: RecordedEvent<string, { realmId: number }>, c) => this.profileFieldsChanged(e.data.realmId, c),
      CustomProfileFieldsReordered: (e: RecordedEvent<string, { realmId: number }>, c) => this.profileFieldsChanged(e.data.realmId, c),
      ChannelFolderCreated: async (e: Recorded<ChannelFolderCreated>, c) => [
        {
          userIds: await realmWide(c, e.data.realmId),
          event: {
            type: 'channel_folder',
            op: 'add',
            channel_folder: {
              id: e.data.folderId,
              name: e.data.name,
              description: e.data.description,
              rendered_description: e.data.renderedDescription,
              order: e.data.order,
              date_created: unixSeconds(e.data.at),
              creator_id: e.data.creatorId,
              is_archived: false,
            },
          },
        },
      ],
      ChannelFolderNameChanged: (e: Recorded<ChannelFolderNameChanged>, c) => this.folderUpdate(e.data.realmId, e.data.folderId, { name: e.data.newName }, c),
      ChannelFolderDescriptionChanged: (e: Recorded<ChannelFolderDescriptionChanged>, c) =>
        this.folderUpdate(e.data.realmId, e.data.folderId, { description: e.data.newDescription, rendered_description: e.data.renderedDescription }, c),
      ChannelFolderArchived: (e: Recorded<ChannelFolderArchived>, c) => this.folderUpdate(e.data.realmId, e.data.folderId, { is_archived: true }, c),
      ChannelFolderUnarchived: (e: Recorded<ChannelFolderUnarchived>, c) => this.folderUpdate(e.data.realmId, e.data.folderId, { is_archived: false }, c),
      ChannelFoldersReordered: async (e: Recorded<ChannelFoldersReordered>, c) => [
        { userIds: await realmWide(c, e.data.realmId), event: { type: 'channel_folder', op: 'reorder', order: e.data.order } },
      ],
      SavedSnippetCreated: (e: Recorded<SavedSnippetCreated>) => [
        {
          userIds: [e.data.userId],
          event: {
            type: 'saved_snippets',
            op: 'add',
            saved_snippet: { id: e.data.savedSnippetId, title: e.data.title, content: e.data.content, date_created: unixSeconds(e.data.at) },
          },
        },
      ],
      SavedSnippetEdited: (e: Recorded<SavedSnippetEdited>) => this.snippetEdited(e),
      SavedSnippetDeleted: (e: Recorded<SavedSnippetDeleted>) => [
        { userIds: [e.data.userId], event: { type: 'saved_snippets', op: 'remove', saved_snippet_id: e.data.savedSnippetId } },
      ],
      UserSettingChanged: (e: Recorded<UserSettingChanged>) => [
        { userIds: [e.data.userId], event: { type: 'user_settings', op: 'update', property: e.data.property, value: e.data.newValue } },
      ],
      UserMuted: (e: Recorded<UserMuted>) => this.mutedUsersOf(e.data.userId),
      UserUnmuted: (e: Recorded<UserUnmuted>) => this.mutedUsersOf(e.data.userId),
      UserStatusChanged: (e: Recorded<UserStatusChanged>, c) => this.userStatus(e, c),
    };
  }

  /**
   * do_send_messages: one event per recipient with their flags; the sending queue (local echo)
   * also gets `local_message_id`. The message is formatted as GET /messages formats it.
   */
  private async messageSent(e: Recorded<MessageSent>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const sender = await this.readStore.get<UserDocument>(USERS, String(d.senderId));
    if (!sender) return [];
    const actor = { realmId: d.realmId, userId: d.senderId, role: sender.role_name, isBot: sender.is_bot };
    const { message } = await this.messages.getMessage(actor, d.messageId, { applyMarkdown: true, allowEmptyTopicName: true });
    const { flags: _senderFlags, ...shared } = message as typeof message & { flags?: string[] };
    const read = new Set(d.readUserIds);
    const mentioned = new Set(d.mentionedUserIds);
    const topicWildcard = new Set(d.topicWildcardMentionedUserIds);
    const flagsOf = (userId: number) => {
      let mask = 0;
      if (read.has(userId)) mask |= MESSAGE_FLAG_BITS.read;
      if (mentioned.has(userId)) mask |= MESSAGE_FLAG_BITS.mentioned;
      if (d.streamWildcardMentioned) mask |= MESSAGE_FLAG_BITS.stream_wildcard_mentioned;
      if (topicWildcard.has(userId)) mask |= MESSAGE_FLAG_BITS.topic_wildcard_mentioned;
      return flagsList(mask);
    };
    const event = { type: 'message', message: shared };
    return [
      {
        userIds: d.recipientIds,
        event,
        perUser: (userId) => ({ ...event, flags: flagsOf(userId) }),
        perQueue: (queue, shaped) =>
          d.queueId !== null && d.localId !== null && queue.id === d.queueId && queue.userId === d.senderId
            ? { ...shaped, local_message_id: d.localId }
            : undefined,
      },
    ];
  }

  /**
   * do_update_message_flags: `messages` are the ids the change covered. Removing `read` also
   * carries `message_details` (what the client needs to count the message unread again).
   * Range selections (mark a channel / topic / everything read) name no ids: see rangeSelectionIds.
   */
  private async flagsChanged(e: Recorded<MessageFlagsChanged>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const ids = d.selection.kind === 'ids' ? d.selection.messageIds : await this.rangeSelectionIds(e);
    const event: Record<string, unknown> = { type: 'update_message_flags', op: d.op, operation: d.op, flag: d.flag, messages: ids, all: false };
    if (d.op === 'remove' && d.flag === 'read' && ids.length > 0) {
      // Where each message is now: a moved message is counted unread in its new channel and topic.
      const docs = await this.messages.documents(ids);
      const flags = await this.userMessages.flagsFor(d.userId, ids);
      const details: Record<string, unknown> = {};
      for (const doc of docs) {
        const mask = flags.get(doc.id) ?? 0;
        const mentioned = (mask & (MESSAGE_FLAG_BITS.mentioned | MESSAGE_FLAG_BITS.stream_wildcard_mentioned | MESSAGE_FLAG_BITS.topic_wildcard_mentioned)) !== 0;
        details[doc.id] =
          doc.type === 'stream'
            ? { type: 'stream', stream_id: doc.stream_id, topic: doc.subject, ...(mentioned ? { mentioned: true } : {}) }
            : { type: 'private', user_ids: (doc.dm_user_ids ?? []).filter((id) => id !== d.userId), ...(mentioned ? { mentioned: true } : {}) };
      }
      event.message_details = details;
    }
    return [{ userIds: [d.userId], event: event as { type: string } }];
  }

  /**
   * The ids of a range selection (do_mark_stream_messages_as_read, do_mark_all_as_read). The rows
   * it changed cannot be told apart any more (the projection ran), so the event lists the user's
   * messages in the range that now have the flag set (removed: unset), newest 50,000 first: a
   * superset of what changed, which clients apply idempotently, as marking a read message read.
   */
  private async rangeSelectionIds(e: Recorded<MessageFlagsChanged>): Promise<number[]> {
    const d = e.data;
    if (d.selection.kind === 'ids') return d.selection.messageIds;
    const terms: NarrowTerm[] = [{ kind: 'flags', mask: MESSAGE_FLAG_BITS[d.flag], set: d.op === 'add' ? 'all' : 'none', negated: false }];
    if (d.selection.kind === 'channel') {
      terms.push({ kind: 'stream', streamId: d.selection.streamId, negated: false });
      if (d.selection.topic !== null) terms.push({ kind: 'topic', topic: d.selection.topic, negated: false });
    }
    const matches = await this.userMessages.findMessages(
      { realmId: d.realmId, userId: d.userId, scope: 'user', terms },
      { direction: 'older', fromId: d.selection.upToMessageId, limit: 50_000 },
    );
    return matches.map((m) => m.id).sort((a, b) => a - b);
  }

  /** bulk_add_subscriptions: `subscription` op `add` to the new subscribers, `peer_add` to the others who can see it. */
  private async subscribed(realmId: number, channelId: number, userIds: number[], c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const out: ClientEventDelivery[] = [];
    for (const userId of userIds) {
      // Each subscription object costs a few reads: only for users with a queue here.
      if (!c.hasQueues(userId)) continue;
      const user = await this.readStore.get<UserDocument>(USERS, String(userId));
      if (!user) continue;
      const subs = await this.subscriptionViews.subscriptionsOf({ realmId, userId, role: user.role_name, isBot: user.is_bot }, { includeSubscribers: true });
      const sub = subs.find((s) => s.stream_id === channelId);
      if (sub) out.push({ userIds: [userId], event: { type: 'subscription', op: 'add', subscriptions: [sub] } });
    }
    const peers = (await this.peersOf(realmId, channelId, c)).filter((id) => !userIds.includes(id));
    out.push({ userIds: peers, event: { type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: userIds } });
    return out;
  }

  private async unsubscribed(realmId: number, channelId: number, userIds: number[], c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    const peers = (await this.peersOf(realmId, channelId, c)).filter((id) => !userIds.includes(id));
    return [
      { userIds, event: { type: 'subscription', op: 'remove', subscriptions: [{ name: channel.name, stream_id: channelId }] } },
      { userIds: peers, event: { type: 'subscription', op: 'peer_remove', stream_ids: [channelId], user_ids: userIds } },
    ];
  }

  /** Who learns about subscriber changes: everyone for a public channel, its subscribers otherwise. */
  private async peersOf(realmId: number, channelId: number, c: ClientEventMapperContext): Promise<number[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    return channel.invite_only ? this.subscriptions.subscriberIds(realmId, channelId) : c.activeUserIds(realmId);
  }

  /**
   * do_change_subscription_property. The domain already records `is_muted` and `in_home_view` as
   * two events (feature level 139's two client events), so each maps to one update.
   */
  private subscriptionProperty(e: Recorded<SubscriptionPropertyChanged>): ClientEventDelivery[] {
    const d = e.data;
    return [{ userIds: [d.userId], event: { type: 'subscription', op: 'update', stream_id: d.channelId, property: d.property, value: d.newValue } }];
  }

  /** do_set_realm_property: `update` for a plain property, `update_dict` for the messaging-edit settings. */
  private async realmProperty(e: Recorded<RealmPropertyChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const users = await realmWide(c, d.realmId);
    if (d.property === 'name' || d.property === 'description') {
      return [{ userIds: users, event: { type: 'realm', op: 'update', property: d.property, value: d.newValue } }];
    }
    return [{ userIds: users, event: { type: 'realm', op: 'update_dict', property: 'default', data: { [d.property]: d.newValue } } }];
  }

  /** do_change_realm_permission_group_setting: `update_dict` with the group's id. */
  private async realmGroupSetting(e: Recorded<RealmGroupSettingChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const ids = await this.groupIds.forRealm(d.realmId);
    return [{ userIds: await realmWide(c, d.realmId), event: { type: 'realm', op: 'update_dict', property: 'default', data: { [d.setting]: ids[d.newValue] } } }];
  }

  /** notify_realm_emoji: the whole (current) emoji dict. */
  private async realmEmojiChanged(realmId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return [{ userIds: await realmWide(c, realmId), event: { type: 'realm_emoji', op: 'update', realm_emoji: await this.realmEmoji.list(realmId) } }];
  }

  /** notify_realm_custom_profile_fields: the whole (current) field list. */
  private async profileFieldsChanged(realmId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return [{ userIds: await realmWide(c, realmId), event: { type: 'custom_profile_fields', fields: await this.profileFields.list(realmId) } }];
  }

  private async folderUpdate(realmId: number, folderId: number, data: Record<string, unknown>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return [{ userIds: await realmWide(c, realmId), event: { type: 'channel_folder', op: 'update', channel_folder_id: folderId, data } }];
  }

  /** do_edit_saved_snippet: the whole snippet as it now is. */
  private async snippetEdited(e: Recorded<SavedSnippetEdited>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const doc = await this.readStore.get<SavedSnippetDocument>(SAVED_SNIPPETS, String(d.savedSnippetId));
    const snippet = doc ? { ...toApiSavedSnippet(doc), title: d.newTitle, content: d.newContent } : { id: d.savedSnippetId, title: d.newTitle, content: d.newContent };
    return [{ userIds: [d.userId], event: { type: 'saved_snippets', op: 'update', saved_snippet: snippet } }];
  }

  private async mutedUsersOf(userId: number): Promise<ClientEventDelivery[]> {
    return [{ userIds: [userId], event: { type: 'muted_users', muted_users: await this.mutedUsers.mutedUsers(userId) } }];
  }

  /** do_update_user_status: the fields that changed, to everyone in the organization. */
  private async userStatus(e: Recorded<UserStatusChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const event: Record<string, unknown> = { type: 'user_status', user_id: d.userId };
    if (d.statusText !== undefined) event.status_text = d.statusText;
    if (d.emojiName !== undefined) {
      event.emoji_name = d.emojiName;
      event.emoji_code = d.emojiCode ?? '';
      event.reaction_type = d.reactionType ?? '';
    }
    return [{ userIds: await realmWide(c, d.realmId), event: event as { type: string } }];
  }
}
