import { AlertWordQueries } from '../alert-words/alert-word.queries';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Addressee,
  DEFAULT_REALM_MESSAGING_SETTINGS,
  DEFAULT_TOPIC_AUTOMATION,
  EMPTY_TOPIC_FALLBACK_NAME,
  isInGroupSetting,
  MAX_MESSAGE_LENGTH,
  normalizeTopic,
  possibleReferences,
  type RealmTopicsPolicy,
  type RenderContext,
  type SendMessageFacts,
  truncateTopic,
  type UserFacts,
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
import { UserGroupQueries } from '../user-groups/user-group.queries';
import { USER_TOPICS, type UserTopicDocument, userTopicDocumentId } from './message.documents';
import { defaultReadBySender, type SendRequest } from './send-message.command';
import { canAccessChannelHistory } from './message-access';
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

/**
 * Looks up everything a send is checked on (the facts of SendMessageFacts) for a parsed
 * addressee: only what the request names, so a send to a channel of 10,000 subscribers reads the
 * channel, its member list and the sender's subscription, and nothing per recipient. Used by
 * MessageSender only. What mentions need (mentionables, canMentionManyUsers, topic participants)
 * is looked up here too; facts for further computed flags (group mentions, alert words) belong
 * next to them, and their flags in recipientsAndFlags (send-message.decider.ts).
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
  ) {}

  /**
   * can_mention_many_users (zerver/lib/message.py): the sender is in the organization's
   * can_mention_many_users_group. Read only when the content may hold a wildcard mention.
   */
  private async canMentionManyUsers(realmId: number, sender: UserFacts, mayHoldWildcard: boolean): Promise<boolean> {
    if (!mayHoldWildcard) return false;
    const realm = await this.realms.byId(realmId);
    const group = realm ? realmGroupSettingsOf(realm).can_mention_many_users_group : 'role:administrators';
    return isInGroupSetting(sender, { system: group });
  }

  /**
   * get_stream_topics_policy: a channel's own topics_policy, or the organization's when it is
   * "inherit". Channels here store none (they all report "inherit"), so it is the organization's.
   */
  private async topicsPolicy(realmId: number): Promise<RealmTopicsPolicy> {
    const realm = await this.realms.byId(realmId);
    return realm ? realmMessagingSettingsOf(realm).topics_policy : DEFAULT_REALM_MESSAGING_SETTINGS.topics_policy;
  }

  async load(request: SendRequest, sender: UserDocument, addressee: Addressee, now: string): Promise<SendMessageFacts> {
    const realmId = sender.realm_id;
    const senderFacts = userFactsOf(sender);
    const references = possibleReferences(request.content);
    const facts: SendMessageFacts = {
      realmId, now, client: request.client, sender: senderFacts, type: request.type, to: request.to, topic: request.topic,
      content: request.content, readBySender: request.readBySender ?? defaultReadBySender(request.client), localId: request.localId ?? null, queueId: request.queueId ?? null,
      directory: { byEmail: {}, byId: {} }, channel: null, subscriberIds: [], senderMayPost: true, botOwnerSubscribed: false,
      senderMutedChannel: false, topicParticipantIds: [], topicHasVisibleMessages: true, topicPolicies: {},
      canMentionManyUsers: await this.canMentionManyUsers(realmId, senderFacts, references.wildcards), mentionables: await this.mentionables(realmId, references),
      mentionableGroups: await this.groups.mentionable(realmId, references.groupNames, { userId: sender.user_id, role: sender.role_name }),
      linkableChannels: await this.linkableChannels(sender, references.channelNames), topicAutomation: {},
      linkifiers: await this.linkifiers.facts(realmId),
      emptyTopicDisplayName: EMPTY_TOPIC_FALLBACK_NAME, maxMessageLength: MAX_MESSAGE_LENGTH, topicsPolicy: DEFAULT_REALM_MESSAGING_SETTINGS.topics_policy,
      alertWords: await this.alertWords.wordsInRealm(realmId),
    };
    if (addressee.kind === 'direct') {
      facts.directory = await this.directory(realmId, addressee.recipients);
      return facts;
    }
    const channel = 'id' in addressee.channel ? await this.channels.byId(realmId, addressee.channel.id) : await this.channels.byName(realmId, addressee.channel.name);
    if (!channel) return facts;
    const topic = truncateTopic(normalizeTopic(request.topic ?? ''));
    const [subscriberIds, senderSubscription, ownerSubscribed] = await Promise.all([
      this.subscriptions.subscriberIds(realmId, channel.stream_id),
      this.subscriptions.subscription(sender.user_id, channel.stream_id),
      sender.is_bot && sender.bot_owner_id !== null ? this.subscriptions.isSubscribed(sender.bot_owner_id, channel.stream_id) : Promise.resolve(false),
    ]);
    const subscribed = senderSubscription?.active === true;
    const owner = sender.is_bot && sender.bot_owner_id !== null ? await this.users.byId(realmId, sender.bot_owner_id) : null;
    const postGroup = channel.group_settings.can_send_message_group;
    facts.channel = {
      streamId: channel.stream_id, name: channel.name, inviteOnly: channel.invite_only, historyPublicToSubscribers: channel.history_public_to_subscribers,
      isWebPublic: channel.is_web_public, isArchived: channel.is_archived,
    };
    facts.subscriberIds = subscriberIds;
    facts.topicsPolicy = await this.topicsPolicy(realmId);
    facts.senderMayPost = isInGroupSetting(senderFacts, postGroup) || (owner !== null && isInGroupSetting(userFactsOf(owner), postGroup));
    facts.botOwnerSubscribed = ownerSubscribed;
    facts.senderMutedChannel = subscribed && senderSubscription?.is_muted === true;
    if (references.wildcards) facts.topicParticipantIds = await this.userMessages.topicParticipants(realmId, channel.stream_id, topic);
    if (!sender.is_bot) {
      facts.topicHasVisibleMessages = canAccessChannelHistory(sender.role_name, channel, subscribed)
        ? await this.userMessages.topicHasMessages(realmId, channel.stream_id, topic)
        : await this.userMessages.topicHasMessages(realmId, channel.stream_id, topic, sender.user_id);
    }
    facts.topicPolicies = await this.topicPolicies([sender.user_id, ...facts.mentionables.map((u) => u.userId)], channel.stream_id, topic);
    facts.topicAutomation = { [sender.user_id]: DEFAULT_TOPIC_AUTOMATION };
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

  /** The users a direct message names, by lower-cased email or by id (absent: no such user). */
  private async directory(realmId: number, recipients: { emails: string[] } | { ids: number[] }): Promise<SendMessageFacts['directory']> {
    const directory: SendMessageFacts['directory'] = { byEmail: {}, byId: {} };
    if ('emails' in recipients) {
      for (const email of recipients.emails) {
        const user = await this.users.byEmail(realmId, email);
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

  private async topicPolicies(userIds: number[], streamId: number, topic: string): Promise<Record<number, VisibilityPolicy>> {
    const docs = await this.readStore.getMany<UserTopicDocument>(USER_TOPICS, [...new Set(userIds)].map((id) => userTopicDocumentId(id, streamId, topic)));
    return Object.fromEntries(docs.map((d) => [d.doc.user_id, d.doc.visibility_policy as VisibilityPolicy]));
  }
}
