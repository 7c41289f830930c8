import { Inject, Injectable } from '@nestjs/common';
import { ChannelFolderQueries } from '../channel-folders/channel-folder-queries';
import { ChannelQueries } from '../channels/channel-queries';
import { ChannelViews } from '../channels/channel-views';
import { SystemGroupIds } from '../channels/system-group-ids';
import { CustomProfileFieldQueries } from '../custom-profile-fields/custom-profile-field-queries';
import { MESSAGES, type MessageDocument } from '../messages/message.documents';
import { UnreadQueries } from '../messages/unread-queries';
import { UserTopicsService } from '../messages/user-topics.service';
import { MutedUserQueries } from '../muted-users/muted-user-queries';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { RealmEmojiQueries } from '../realm-emoji/realm-emoji-queries';
import { RealmQueries, realmGroupSettingsOf, realmMessagingSettingsOf } from '../realms/realm-queries';
import { SavedSnippetQueries } from '../saved-snippets/saved-snippet-queries';
import { ScheduledMessageQueries } from '../scheduled-messages/scheduled-message-queries';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { SubscriptionQueries } from '../subscriptions/subscription-queries';
import { SubscriptionViews } from '../subscriptions/subscription-views';
import { UserStatusQueries } from '../user-status/user-status.queries';
import { formatUser, type ProfileDataValue } from '../users/user-format';
import { UserQueries } from '../users/user-queries';
import type { AreaRegisterSections, RegisterSection, RegisterStateOptions } from './area-contributions';
import type { Actor } from '@app/domain';

/** zerver/lib/events.py RECENT_CONVERSATIONS_LIMIT. */
const RECENT_CONVERSATIONS_LIMIT = 1000;


/**
 * The /register sections not yet moved into their areas (`<area>/<area>.register.ts`).
 * TODO(#18): each section moves to the area that owns its read model.
 */
@Injectable()
export class LegacyRegisterSections implements AreaRegisterSections {
  registerSections(): RegisterSection[] {
    const sections: Record<string, RegisterSection['read']> = {
      realm: (actor) => this.realm(actor),
      realm_user: (actor) => this.realmUsers(actor),
      subscription: (actor, options) => this.subscriptionsState(actor, options),
      // The channels the user can see (Zulip's `streams`; archived ones are left out).
      stream: async (actor) => ({
        streams: await this.channelViews.streams(actor.realmId, (await this.channels.channelsVisibleTo(actor)).filter((c) => !c.is_archived)),
      }),
      realm_emoji: async (actor) => ({ realm_emoji: await this.realmEmoji.list(actor.realmId) }),
      custom_profile_fields: async (actor) => ({ custom_profile_fields: await this.profileFields.list(actor.realmId) }),
      channel_folders: async (actor) => ({ channel_folders: await this.folders.list(actor.realmId, { includeArchived: true }) }),
      user_topic: async (actor) => ({ user_topics: await this.userTopics.userTopics(actor) }),
      recent_private_conversations: async (actor) => ({ recent_private_conversations: await this.recentPrivateConversations(actor) }),
      saved_snippets: async (actor) => ({ saved_snippets: await this.snippets.list(actor.userId!) }),
      scheduled_messages: async (actor) => ({ scheduled_messages: await this.scheduledMessages.list(actor.userId!) }),
      muted_users: async (actor) => ({ muted_users: await this.mutedUsers.mutedUsers(actor.userId!) }),
      user_settings: async (actor) => ({ user_settings: await this.settings.settingsOf(actor.userId!) }),
      user_status: async (actor) => ({ user_status: await this.statuses.statusesForRegister(actor.realmId) }),
      // fetch_initial_state_data: `unread_msgs` (at most 50,000) when both `message` and `update_message_flags` are wanted.
      update_message_flags: async (actor) => ({ unread_msgs: await this.unread.unreadMsgs(actor) }),
    };
    const extra: Record<string, Partial<RegisterSection>> = {
      update_message_flags: { alsoRequires: ['message'] },
      channel_folders: { aliases: ['channel_folder'] },
    };
    return Object.entries(sections).map(([fetchType, read]) => ({ fetchType, read, ...extra[fetchType] }));
  }

  constructor(
    private readonly snippets: SavedSnippetQueries,
    private readonly mutedUsers: MutedUserQueries,
    private readonly settings: UserSettingsQueries,
    private readonly statuses: UserStatusQueries,
    private readonly unread: UnreadQueries,
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
    private readonly users: UserQueries,
    private readonly subscriptionViews: SubscriptionViews,
    private readonly subscriptions: SubscriptionQueries,
    private readonly channels: ChannelQueries,
    private readonly channelViews: ChannelViews,
    private readonly realmEmoji: RealmEmojiQueries,
    private readonly profileFields: CustomProfileFieldQueries,
    private readonly folders: ChannelFolderQueries,
    private readonly userTopics: UserTopicsService,
    private readonly scheduledMessages: ScheduledMessageQueries,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
  ) {}

  /** The realm_* keys that events of type `realm` (update / update_dict) change. */
  private async realm(actor: Actor): Promise<Record<string, unknown>> {
    const realm = await this.realms.mustFindById(actor.realmId);
    const ids = await this.groupIds.forRealm(actor.realmId);
    const out: Record<string, unknown> = { realm_name: realm.name, realm_description: realm.description };
    for (const [key, value] of Object.entries(realmMessagingSettingsOf(realm))) out[`realm_${key}`] = value;
    for (const [key, group] of Object.entries(realmGroupSettingsOf(realm))) out[`realm_${key}`] = ids[group as keyof typeof ids];
    return out;
  }

  private async realmUsers(actor: Actor): Promise<Record<string, unknown>> {
    const [users, profileData] = await Promise.all([this.users.list(actor.realmId), this.profileFields.profileData(actor.realmId)]);
    // get_custom_profile_field_values; the read model spells an absent rendering as null.
    const format = (u: (typeof users)[number]) => formatUser(u, actor, { profileData: (profileData.get(u.user_id) ?? {}) as Record<string, ProfileDataValue> });
    return {
      realm_users: users.filter((u) => u.is_active).map(format),
      realm_non_active_users: users.filter((u) => !u.is_active).map(format),
    };
  }

  /**
   * get_recent_private_conversations: the conversations of the user's newest 1,000 direct
   * messages (RECENT_CONVERSATIONS_LIMIT), each with its newest message id and the other
   * participants (none for the conversation with oneself), newest first.
   */
  private async recentPrivateConversations(actor: Actor): Promise<{ max_message_id: number; user_ids: number[] }[]> {
    if (actor.userId === null) return [];
    const matches = await this.userMessages.findMessages(
      { realmId: actor.realmId, userId: actor.userId, scope: 'user', terms: [{ kind: 'is-dm', negated: false }] },
      { direction: 'older', fromId: Number.MAX_SAFE_INTEGER, limit: RECENT_CONVERSATIONS_LIMIT },
    );
    const docs = await this.readStore.getMany<MessageDocument>(MESSAGES, matches.map((m) => String(m.id)));
    const conversations = new Map<string, { max_message_id: number; user_ids: number[] }>();
    for (const { doc } of docs) {
      const others = (doc.dm_user_ids ?? []).filter((id) => id !== actor.userId).sort((a, b) => a - b);
      const key = others.join(',');
      const known = conversations.get(key);
      if (!known || known.max_message_id < doc.id) conversations.set(key, { max_message_id: doc.id, user_ids: others });
    }
    return [...conversations.values()].sort((a, b) => b.max_message_id - a.max_message_id);
  }

  /**
   * gather_subscriptions: `subscriptions` (active), `unsubscribed` (channels the user left that
   * they can still see), `never_subscribed` (visible channels they never joined).
   */
  private async subscriptionsState(actor: Actor, options: RegisterStateOptions): Promise<Record<string, unknown>> {
    const subscriptions = await this.subscriptionViews.subscriptionsOf(actor, { includeSubscribers: options.includeSubscribers });
    if (actor.userId === null) return { subscriptions, unsubscribed: [], never_subscribed: [] };
    const all = await this.subscriptions.allSubscriptionsOf([actor.userId]);
    const left = new Set(all.filter((s) => !s.active).map((s) => s.channel_id));
    const ever = new Set(all.map((s) => s.channel_id));
    const visible = (await this.channels.channelsVisibleTo(actor)).filter((c) => !c.is_archived);
    const streams = await this.channelViews.streams(actor.realmId, visible);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    return {
      subscriptions,
      unsubscribed: streams.filter((s) => left.has(s.stream_id)).sort(byName),
      never_subscribed: streams.filter((s) => !ever.has(s.stream_id)).sort(byName),
    };
  }
}
