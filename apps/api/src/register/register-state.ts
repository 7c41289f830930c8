import { Inject, Injectable } from '@nestjs/common';
import {
  ChannelFolderQueries,
  ChannelQueries,
  ChannelViews,
  CustomProfileFieldQueries,
  DraftQueries,
  formatUser,
  MESSAGES,
  type MessageDocument,
  READ_STORE,
  type ReadStorePort,
  USER_MESSAGE_STORE,
  type UserMessageStorePort,
  MutedUserQueries,
  type ProfileDataValue,
  RealmEmojiQueries,
  RealmQueries,
  realmGroupSettingsOf,
  realmMessagingSettingsOf,
  SavedSnippetQueries,
  ScheduledMessageQueries,
  SubscriptionQueries,
  SubscriptionViews,
  SystemGroupIds,
  UnreadQueries,
  UserQueries,
  UserSettingsQueries,
  UserStatusQueries,
  UserTopicsService,
} from '@app/application';
import type { Actor } from '@app/domain';

/** zerver/lib/events.py RECENT_CONVERSATIONS_LIMIT. */
const RECENT_CONVERSATIONS_LIMIT = 1000;

type Section = (actor: Actor, options: RegisterStateOptions) => Promise<Record<string, unknown>>;
export type RegisterStateOptions = { includeSubscribers: boolean };

/**
 * POST /register's initial state (zerver/lib/events.py fetch_initial_state_data), each part under
 * Zulip's keys and fetched only when the client asks for its event type (`fetch_event_types`,
 * defaulting to `event_types`, defaulting to everything). Every part reads the read models only,
 * so RegisterCoordinator can make the whole read consistent with one log position.
 */
@Injectable()
export class RegisterState {
  private readonly sections: Record<string, Section> = {
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
    drafts: async (actor) => ({ drafts: await this.drafts.list(actor.userId!) }),
    saved_snippets: async (actor) => ({ saved_snippets: await this.snippets.list(actor.userId!) }),
    scheduled_messages: async (actor) => ({ scheduled_messages: await this.scheduledMessages.list(actor.userId!) }),
    muted_users: async (actor) => ({ muted_users: await this.mutedUsers.mutedUsers(actor.userId!) }),
    user_settings: async (actor) => ({ user_settings: await this.settings.settingsOf(actor.userId!) }),
    user_status: async (actor) => ({ user_status: await this.statuses.statusesForRegister(actor.realmId) }),
    // fetch_initial_state_data: `unread_msgs` (at most 50,000) when both `message` and `update_message_flags` are wanted.
    update_message_flags: async (actor) => ({ unread_msgs: await this.unread.unreadMsgs(actor) }),
  };
  /** Sections Zulip sends only when other fetch types are wanted too. */
  private readonly alsoRequires: Record<string, string[]> = { update_message_flags: ['message'] };
  /** Event types whose state lives under another fetch type (channel_folder's is channel_folders). */
  private readonly aliases: Record<string, string> = { channel_folder: 'channel_folders' };

  constructor(
    private readonly drafts: DraftQueries,
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

  /** The fetch types this server knows (a request's other types fetch nothing). */
  get knownTypes(): string[] {
    return Object.keys(this.sections);
  }

  async fetch(actor: Actor, types: string[] | undefined, options: RegisterStateOptions = { includeSubscribers: false }): Promise<Record<string, unknown>> {
    const requested = types?.map((t) => this.aliases[t] ?? t);
    const wanted =
      requested === undefined
        ? Object.keys(this.sections)
        : [...new Set(requested)].filter((t) => t in this.sections && (this.alsoRequires[t] ?? []).every((r) => requested.includes(r)));
    const parts = await Promise.all(wanted.map((type) => this.sections[type](actor, options)));
    return Object.assign({}, ...parts);
  }

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
