import { AlertWordQueries } from '../alert-words/alert-word.queries';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Addressee,
  type AutomaticPolicy,
  channelNameKey,
  DEFAULT_REALM_MESSAGING_SETTINGS,
  DEFAULT_TOPIC_AUTOMATION,
  defaultRealmGroupSettings,
  directConversationKey,
  type DirectMessagePolicyFacts,
  directParticipants,
  EMPTY_TOPIC_FALLBACK_NAME,
  isInGroupSetting,
  isSystemGroupMember,
  MAX_MESSAGE_LENGTH,
  normalizeTopic,
  possibleReferences,
  type EffectiveTopicsPolicy,
  sendPolicyDependsOnInitiation,
  type RenderContext,
  type SendMessageFacts,
  type TopicAutomationSettings,
  truncateTopic,
  type UserFacts,
  VISIBILITY_POLICY,
  type VisibilityPolicy,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { RealmQueries, realmGroupSettingsOf, realmMessagingSettingsOf } from '../realms/realm.queries';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import type { UserDocument } from '../users/user.documents';
import { UserQueries } from '../users/user.queries';
import { actorFromUser } from '../users/user-format';
import { UserGroupQueries } from '../user-groups/user-group.queries';
import { USER_TOPICS, type UserTopicDocument, userTopicDocumentId } from './message.documents';
import { CachedDocuments } from '../shared/cached-documents';
import { CHANNELS, type ChannelDocument } from '../channels/channel.documents';
import { CHANNEL_MEMBERS, SUBSCRIPTIONS, type SubscriptionDocument } from '../subscriptions/subscription.documents';
import { USERS } from '../users/user.documents';
import { REALMS, type RealmDocument } from '../realms/realm.documents';
import { ALERT_WORDS } from '../alert-words/alert-word.documents';
import { LINKIFIERS } from '../linkifiers/linkifier.documents';
import { USER_SETTINGS_COLLECTION, type UserSettingsDocument } from '../settings/user-settings.documents';
import { defaultReadBySender, type SendRequest } from './send-message.command';
import { canReadChannelHistory } from './message-access';
import { LinkifierQueries } from '../linkifiers/linkifier.queries';

export const userFactsOf = (user: UserDocument): UserFacts => ({
  userId: user.user_id,
  email: user.email,
  fullName: user.full_name,
  role: user.role_name,
  isActive: user.is_active,
  isBot: user.is_bot,
  botType: user.bot_type === 1 ? 'generic' : user.bot_type === 2 ? 'incoming_webhook' : null,
  botOwnerId: user.bot_owner_id,
});

/** A user's automatic topic settings from their settings document (absent keys: Zulip's defaults). */
export const topicAutomationOf = (doc: UserSettingsDocument | undefined): TopicAutomationSettings => ({
  followTopics: (doc?.automatically_follow_topics_policy ?? DEFAULT_TOPIC_AUTOMATION.followTopics) as AutomaticPolicy,
  unmuteTopicsInMutedChannels: (doc?.automatically_unmute_topics_in_muted_streams_policy ?? DEFAULT_TOPIC_AUTOMATION.unmuteTopicsInMutedChannels) as AutomaticPolicy,
  followTopicsWhereMentioned: doc?.automatically_follow_topics_where_mentioned ?? DEFAULT_TOPIC_AUTOMATION.followTopicsWhereMentioned,
});

/**
 * The collections the facts of a send to a channel come from, besides the message index. A send
 * changes none of them, except the first of a topic (the sender's automatic follow, in
 * user_topics), so between changes the facts of the next send are answered from memory (issue #23).
 */
const SEND_FACT_COLLECTIONS = [REALMS, CHANNELS, CHANNEL_MEMBERS, SUBSCRIPTIONS, USERS, ALERT_WORDS, LINKIFIERS, USER_TOPICS, USER_SETTINGS_COLLECTION] as const;

/** The cached reads of one send, with one change check for all of them (CachedDocuments.view). */
export type SendFactsView = ReturnType<CachedDocuments<object>['view']>;

/**
 * Looks up everything a send is checked on (the facts of SendMessageFacts) for a parsed
 * addressee: only what the request names, so a send to a channel of 10,000 subscribers reads the
 * channel, its member list and the sender's subscription, and nothing per recipient. Used by
 * MessageSender only. What mentions need (mentionables, canMentionManyUsers, topic participants)
 * is looked up here too; facts for further computed flags (group mentions, alert words) belong
 * next to them, and their flags in recipientsAndFlags (send-message.rules.ts).
 *
 * What every send to a channel reads again (the sender, the organization, the channel, its subscribers, the
 * sender's subscription, the organization's alert words and linkifiers, the topic's visibility
 * policies) is kept between sends in a CachedDocuments over SEND_FACT_COLLECTIONS: an entry is
 * good while none of those collections changed, in this process or (embedded stores) in any other
 * process on the same data directory; a store without change stamps (MongoDB) is read every time.
 * Entries are frozen and shared, so the facts built from them are never changed in place.
 */
@Injectable()
export class SendMessageFactsLoader {
  constructor(
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    private readonly realms: RealmQueries,
    private readonly linkifiers: LinkifierQueries,
    private readonly alertWords: AlertWordQueries,
    private readonly groups: UserGroupQueries,
  ) {
    this.cache = new CachedDocuments<object>(readStore, SEND_FACT_COLLECTIONS, 1000);
  }

  private readonly cache: CachedDocuments<object>;

  /** One change check for the cached reads of one send (its sender's and its facts'). */
  view(): SendFactsView {
    return this.cache.view();
  }

  /** The sender's account, as UserQueries.byId reads it (shared and frozen while unchanged). */
  sender(realmId: number, userId: number, view: SendFactsView = this.view()): Promise<Readonly<UserDocument> | null> {
    return view.get(`user:${realmId}:${userId}`, () => this.users.byId(realmId, userId)) as Promise<UserDocument | null>;
  }

  /**
   * can_mention_many_users (zerver/lib/message.py): the sender is in the organization's
   * can_mention_many_users_group. Read only when the content may hold a wildcard mention.
   */
  private async canMentionManyUsers(organization: () => Promise<RealmDocument | null>, sender: UserFacts, mayHoldWildcard: boolean): Promise<boolean> {
    if (!mayHoldWildcard) return false;
    const realm = await organization();
    const group = realm ? realmGroupSettingsOf(realm).can_mention_many_users_group : 'role:administrators';
    return isInGroupSetting(sender, { system: group });
  }

  /**
   * get_stream_topics_policy: a channel's own topics_policy, or the organization's when it is
   * "inherit" (the organization is read only then).
   */
  private async topicsPolicy(channel: ChannelDocument, organization: () => Promise<RealmDocument | null>): Promise<EffectiveTopicsPolicy> {
    if (channel.topics_policy !== undefined && channel.topics_policy !== 'inherit') return channel.topics_policy;
    const realm = await organization();
    return realm ? realmMessagingSettingsOf(realm).topics_policy : DEFAULT_REALM_MESSAGING_SETTINGS.topics_policy;
  }

  async load(request: SendRequest, sender: UserDocument, addressee: Addressee, now: string, view: SendFactsView = this.view()): Promise<SendMessageFacts> {
    const cached = <T extends object>(key: string, read: () => Promise<T | null>) => view.get(key, read) as Promise<T | null>;
    const realmId = sender.realm_id;
    const organization = () => cached<RealmDocument>(`realm:${realmId}`, () => this.realms.byId(realmId));
    const senderFacts = userFactsOf(sender);
    const references = possibleReferences(request.content);
    const facts: SendMessageFacts = {
      realmId, now, client: request.client, sender: senderFacts, type: request.type, to: request.to, topic: request.topic,
      content: request.content, readBySender: request.readBySender ?? defaultReadBySender(request.client), localId: request.localId ?? null, queueId: request.queueId ?? null,
      directory: { byEmail: {}, byId: {} }, channel: null, subscriberIds: [], senderMayPost: true, botOwnerSubscribed: false,
      senderMutedChannel: false, topicParticipantIds: [], topicHasVisibleMessages: true, topicPolicies: {},
      canMentionManyUsers: await this.canMentionManyUsers(organization, senderFacts, references.wildcards), mentionables: await this.mentionables(realmId, references),
      mentionableGroups: await this.groups.mentionable(realmId, references.groupNames, { userId: sender.user_id, role: sender.role_name }),
      linkableChannels: await this.linkableChannels(sender, references.channelNames), topicAutomation: {},
      linkifiers: (await cached(`linkifiers:${realmId}`, () => this.linkifiers.facts(realmId)))!,
      emptyTopicDisplayName: EMPTY_TOPIC_FALLBACK_NAME, maxMessageLength: MAX_MESSAGE_LENGTH, topicsPolicy: DEFAULT_REALM_MESSAGING_SETTINGS.topics_policy,
      alertWords: (await cached(`alert-words:${realmId}`, () => this.alertWords.wordsInRealm(realmId)))!,
    };
    if (addressee.kind === 'direct') {
      facts.directory = await this.directory(sender, addressee.recipients);
      facts.directMessagePolicy = await this.directMessagePolicy(sender, facts.directory, organization);
      return facts;
    }
    const named = addressee.channel;
    const channel =
      'id' in named
        ? await cached<ChannelDocument>(`channel:${realmId}:${named.id}`, () => this.channels.byId(realmId, named.id))
        : await cached<ChannelDocument>(`channel-name:${realmId}:${channelNameKey(named.name)}`, () => this.channels.byName(realmId, named.name));
    if (!channel) return facts;
    const topic = truncateTopic(normalizeTopic(request.topic ?? ''));
    const [subscriberIds, senderSubscription, ownerSubscribed] = await Promise.all([
      cached(`subscribers:${realmId}:${channel.stream_id}`, () => this.subscriptions.subscriberIds(realmId, channel.stream_id)),
      cached<SubscriptionDocument>(`subscription:${sender.user_id}:${channel.stream_id}`, () => this.subscriptions.subscription(sender.user_id, channel.stream_id)),
      sender.is_bot && sender.bot_owner_id !== null ? this.subscriptions.isSubscribed(sender.bot_owner_id, channel.stream_id) : Promise.resolve(false),
    ]);
    const subscribed = senderSubscription?.active === true;
    const owner = sender.is_bot && sender.bot_owner_id !== null ? await this.users.byId(realmId, sender.bot_owner_id) : null;
    const postGroup = channel.group_settings.can_send_message_group;
    facts.channel = {
      streamId: channel.stream_id, name: channel.name, inviteOnly: channel.invite_only, historyPublicToSubscribers: channel.history_public_to_subscribers,
      isWebPublic: channel.is_web_public, isArchived: channel.is_archived,
    };
    facts.subscriberIds = subscriberIds!;
    facts.topicsPolicy = await this.topicsPolicy(channel, organization);
    facts.senderMayPost = isInGroupSetting(senderFacts, postGroup) || (owner !== null && isInGroupSetting(userFactsOf(owner), postGroup));
    facts.botOwnerSubscribed = ownerSubscribed;
    facts.senderMutedChannel = subscribed && senderSubscription?.is_muted === true;
    if (references.wildcards) facts.topicParticipantIds = await this.userMessages.topicParticipants(realmId, channel.stream_id, topic);
    const groupMembers = await this.humanGroupMembers(realmId, facts.mentionableGroups, facts.subscriberIds, facts.mentionables);
    if (groupMembers.length > 0) facts.humanGroupMemberIds = groupMembers;
    const mayFollow = [sender.user_id, ...facts.mentionables.map((u) => u.userId), ...groupMembers];
    facts.topicPolicies = await this.topicPolicies(view, mayFollow, channel.stream_id, topic);
    facts.topicAutomation = await this.topicAutomation(view, mayFollow);
    // Whether the sender initiates the topic is looked up only when the sender's automatic policy
    // depends on it (not once they follow the topic): otherwise it stays true, which the decider
    // then does not read.
    const current = facts.topicPolicies[sender.user_id] ?? VISIBILITY_POLICY.INHERIT;
    const senderAutomation = facts.topicAutomation[sender.user_id] ?? DEFAULT_TOPIC_AUTOMATION;
    if (!sender.is_bot && sendPolicyDependsOnInitiation(senderAutomation, current, facts.senderMutedChannel)) {
      facts.topicHasVisibleMessages = canReadChannelHistory(sender.role_name, channel, subscribed)
        ? await this.userMessages.topicHasMessages(realmId, channel.stream_id, topic)
        : await this.userMessages.topicHasMessages(realmId, channel.stream_id, topic, sender.user_id);
    }
    return facts;
  }

  /**
   * What rendering `content` as `sender` may resolve (users it may mention, channels it may link
   * to): POST /messages/render renders exactly as a send would.
   */
  async renderContext(sender: UserDocument, content: string): Promise<RenderContext> {
    const references = possibleReferences(content);
    const [users, channels] = await Promise.all([this.mentionables(sender.realm_id, references), this.linkableChannels(sender, references.channelNames)]);
    return { users: users.map((u) => ({ id: u.userId, fullName: u.fullName, isActive: u.isActive })), channels, emptyTopicDisplayName: EMPTY_TOPIC_FALLBACK_NAME };
  }

  /**
   * The organization's direct_message_permission_group and direct_message_initiator_group; whether
   * the conversation exists is looked up (the sender's rows in it) only when the sender may not
   * start one (check_can_send_direct_message's previous_messages_exist).
   */
  private async directMessagePolicy(
    sender: UserDocument,
    directory: SendMessageFacts['directory'],
    organization: () => Promise<RealmDocument | null>,
  ): Promise<DirectMessagePolicyFacts> {
    const realm = await organization();
    const groups = realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings();
    const policy = { permissionGroup: groups.direct_message_permission_group, initiatorGroup: groups.direct_message_initiator_group, conversationExists: true };
    if (sender.is_bot || isSystemGroupMember(policy.initiatorGroup, sender.role_name)) return policy;
    const named = [...Object.values(directory.byEmail), ...Object.values(directory.byId)].map((u) => u.userId);
    const dmKey = directConversationKey(directParticipants(sender.user_id, named));
    const found = await this.userMessages.findMessages(
      { realmId: sender.realm_id, userId: sender.user_id, scope: 'user', terms: [{ kind: 'dm', dmKey, negated: false }] },
      { direction: 'older', fromId: Number.MAX_SAFE_INTEGER, limit: 1 },
    );
    return { ...policy, conversationExists: found.length > 0 };
  }

  /**
   * The users a direct message names, by lower-cased email or by id (absent: no such user). An
   * address is one the sender may use: the shown `email`, or a real address they may read.
   */
  private async directory(sender: UserDocument, recipients: { emails: string[] } | { ids: number[] }): Promise<SendMessageFacts['directory']> {
    const realmId = sender.realm_id;
    const directory: SendMessageFacts['directory'] = { byEmail: {}, byId: {} };
    if ('emails' in recipients) {
      for (const email of recipients.emails) {
        const user = await this.users.byEmailAs(actorFromUser(sender), email);
        if (user) directory.byEmail[email.toLowerCase()] = userFactsOf(user);
      }
    } else {
      for (const id of recipients.ids) {
        const user = await this.users.byId(realmId, id);
        if (user) directory.byId[id] = userFactsOf(user);
      }
    }
    return directory;
  }

  /** Users the content might mention: by id, and by name (case-insensitively) when names appear. */
  private async mentionables(realmId: number, references: ReturnType<typeof possibleReferences>): Promise<UserFacts[]> {
    const result = new Map<number, UserDocument>();
    for (const id of references.ids) {
      const user = await this.users.byId(realmId, id);
      if (user) result.set(user.user_id, user);
    }
    const names = new Set(references.names);
    if (names.size > 0) {
      for (const user of await this.users.list(realmId)) if (names.has(user.full_name.toLowerCase())) result.set(user.user_id, user);
    }
    return [...result.values()].map(userFactsOf);
  }

  /**
   * Members of the groups the content may mention who are active human subscribers of the channel
   * and not already among the users it names (humanGroupMemberIds). Read only when a group is named.
   */
  private async humanGroupMembers(realmId: number, groups: SendMessageFacts['mentionableGroups'], subscriberIds: number[], named: UserFacts[]): Promise<number[]> {
    if (groups.length === 0) return [];
    const subscribers = new Set(subscriberIds);
    const known = new Set(named.map((u) => u.userId));
    const candidates = [...new Set(groups.flatMap((g) => g.memberIds))].filter((id) => subscribers.has(id) && !known.has(id));
    if (candidates.length === 0) return [];
    const docs = await this.readStore.getMany<UserDocument>(USERS, candidates.map(String));
    return docs.filter(({ doc }) => doc.realm_id === realmId && doc.is_active && !doc.is_bot).map(({ doc }) => doc.user_id).sort((a, b) => a - b);
  }

  /** Channels the content links to that the sender may see (a link never reveals a channel). */
  private async linkableChannels(sender: UserDocument, names: string[]): Promise<SendMessageFacts['linkableChannels']> {
    if (names.length === 0) return [];
    const actor = { realmId: sender.realm_id, userId: sender.user_id, role: sender.role_name, isBot: sender.is_bot };
    const result: SendMessageFacts['linkableChannels'] = [];
    for (const channel of (await this.channels.byNames(sender.realm_id, names)).values()) {
      if (await this.channels.canAccess(actor, channel)) result.push({ id: channel.stream_id, name: channel.name });
    }
    return result;
  }

  /**
   * The automatic topic settings (`automatically_follow_topics_policy`,
   * `automatically_unmute_topics_in_muted_streams_policy`,
   * `automatically_follow_topics_where_mentioned`) of the sender and of the users the content may
   * mention, as visibility_policy_for_send_message and the follow-where-mentioned rule read them.
   * The settings read model holds only what a user changed: a user without a document, or without
   * one of these keys, has Zulip's default.
   */
  private async topicAutomation(view: SendFactsView, userIds: number[]): Promise<Record<number, TopicAutomationSettings>> {
    const ids = [...new Set(userIds)].map(String);
    const automation = await view.get(`topic-automation:${JSON.stringify(ids)}`, async () => {
      const docs = await this.readStore.getMany<UserSettingsDocument>(USER_SETTINGS_COLLECTION, ids);
      const byUser = new Map(docs.map(({ doc }) => [doc.user_id, doc]));
      return Object.fromEntries(ids.map((id) => [id, topicAutomationOf(byUser.get(Number(id)))]));
    });
    return automation as Record<number, TopicAutomationSettings>;
  }

  private async topicPolicies(view: SendFactsView, userIds: number[], streamId: number, topic: string): Promise<Record<number, VisibilityPolicy>> {
    const ids = [...new Set(userIds)].map((id) => userTopicDocumentId(id, streamId, topic));
    const policies = await view.get(`topic-policies:${JSON.stringify(ids)}`, async () => {
      const docs = await this.readStore.getMany<UserTopicDocument>(USER_TOPICS, ids);
      return Object.fromEntries(docs.map((d) => [d.doc.user_id, d.doc.visibility_policy as VisibilityPolicy]));
    });
    return policies as Record<number, VisibilityPolicy>;
  }
}
