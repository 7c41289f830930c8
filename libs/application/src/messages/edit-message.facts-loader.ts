import { AlertWordQueries } from '../alert-words/alert-word.queries';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  changeAllTimeLimitCutoffs,
  DEFAULT_REALM_MESSAGING_SETTINGS,
  editedTopic,
  mayNeedChangeAllTimeLimit,
  defaultRealmGroupSettings,
  type DeleteMessageFacts,
  type EditChannelFacts,
  type EditMessageFacts,
  type EditMessageRequest,
  EMPTY_TOPIC_FALLBACK_NAME,
  isInGroupSetting,
  MAX_MESSAGE_LENGTH,
  possibleReferences,
  truncateTopic,
  type UserFacts,
  type VisibilityPolicy,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ChannelDocument } from '../channels/channel.documents';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { RealmQueries, realmGroupSettingsOf, realmMessagingSettingsOf } from '../realms/realm.queries';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import type { UserDocument } from '../users/user.documents';
import { UserQueries } from '../users/user.queries';
import { type AccessedMessage, canReadChannelHistory } from './message-access';
import { MESSAGES, type MessageDocument, USER_TOPICS, type UserTopicDocument } from './message.documents';
import { userFactsOf } from './send-message.facts-loader';
import { LinkifierQueries } from '../linkifiers/linkifier.queries';
import { UserGroupQueries } from '../user-groups/user-group.queries';

const channelFacts = (channel: ChannelDocument, subscriberIds: number[]): EditChannelFacts => ({
  streamId: channel.stream_id,
  name: channel.name,
  inviteOnly: channel.invite_only,
  historyPublicToSubscribers: channel.history_public_to_subscribers,
  isWebPublic: channel.is_web_public,
  isArchived: channel.is_archived,
  groupSettings: channel.group_settings,
  subscriberIds,
  topicsPolicy: channel.topics_policy,
});

/**
 * Reads what PATCH and DELETE /messages/{id} decide on, for a message the editor may read
 * (MessageAccess.access). A move of a whole topic reads the topic's
 * ids (and send times) from the message index in one query, never message by message.
 */
@Injectable()
export class EditMessageFactsLoader {
  constructor(
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly realms: RealmQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    private readonly linkifiers: LinkifierQueries,
    private readonly alertWords: AlertWordQueries,
    private readonly groups: UserGroupQueries,
  ) {}

  async forEdit(accessed: AccessedMessage, request: EditMessageRequest, now: string): Promise<Omit<EditMessageFacts, 'currentContentSha256'>> {
    const { user: editor, doc, channel } = accessed;
    const realmId = editor.realm_id;
    const realm = await this.realms.byId(realmId);
    const editorFacts = userFactsOf(editor);
    const facts: Omit<EditMessageFacts, 'currentContentSha256'> = {
      realmId, messageId: doc.id, now, editor: editorFacts, request,
      location: doc.type === 'stream' ? { streamId: doc.stream_id!, topic: doc.subject } : null,
      origChannel: null, targetChannel: null,
      settings: realm ? realmMessagingSettingsOf(realm) : DEFAULT_REALM_MESSAGING_SETTINGS,
      realmGroups: realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings(),
      topicMessageIds: [], firstMessageIdSentAfter: {}, targetTopicHasMessages: false, origTopicPolicies: {}, targetTopicPolicies: {},
      mentionables: [], mentionableGroups: [], linkableChannels: [], canMentionManyUsers: false, topicParticipantIds: [],
      emptyTopicDisplayName: EMPTY_TOPIC_FALLBACK_NAME, maxMessageLength: MAX_MESSAGE_LENGTH,
    };
    if (request.content !== undefined) await this.loadContentFacts(facts, editor, request.content, doc);
    if (!channel) return facts;
    facts.origChannel = channelFacts(channel, await this.subscriptions.subscriberIds(realmId, channel.stream_id));
    const moving = request.topic !== undefined || (request.streamId !== undefined && request.streamId !== channel.stream_id);
    if (!moving) return facts;
    let target = channel;
    if (request.streamId !== undefined && request.streamId !== channel.stream_id) {
      const found = await this.channels.byId(realmId, request.streamId);
      const actor = { realmId, userId: editor.user_id, role: editor.role_name, isBot: editor.is_bot };
      if (found && !found.is_archived && (await this.channels.canAccess(actor, found))) {
        facts.targetChannel = channelFacts(found, await this.subscriptions.subscriberIds(realmId, found.stream_id));
        facts.origChannelPastSubscriberIds = await this.subscriptions.pastSubscriberIds(realmId, channel.stream_id);
        target = found;
      }
    }
    // The topic's messages the editor can access (bulk_access_stream_messages_query), with send times.
    const wholeHistory = canReadChannelHistory(editor.role_name, channel, accessed.subscribed);
    const matches = await this.userMessages.findMessages(
      {
        realmId, userId: editor.user_id, scope: wholeHistory ? 'history' : 'user',
        terms: [{ kind: 'stream', streamId: channel.stream_id, negated: false }, { kind: 'topic', topic: doc.subject, negated: false }],
      },
      { direction: 'newer', fromId: 0, limit: Number.MAX_SAFE_INTEGER },
    );
    facts.topicMessageIds = matches.length > 0 ? matches.map((m) => m.id) : [doc.id];
    if (mayNeedChangeAllTimeLimit(editorFacts, request, doc.subject)) {
      for (const cutoff of changeAllTimeLimitCutoffs(facts.settings, now)) facts.firstMessageIdSentAfter[cutoff] = await this.firstMessageIdSentAfter(realmId, cutoff);
    }

    const targetTopic = request.topic === undefined ? doc.subject : normalizedEditTopic(request.topic);
    facts.targetTopicHasMessages = await this.userMessages.topicHasMessages(realmId, target.stream_id, targetTopic);
    facts.origTopicPolicies = await this.topicPolicies(channel.stream_id, doc.subject);
    facts.targetTopicPolicies = await this.topicPolicies(target.stream_id, targetTopic);
    return facts;
  }

  async forDelete(accessed: AccessedMessage, now: string): Promise<DeleteMessageFacts> {
    const { user: editor, doc, channel } = accessed;
    const sender = doc.sender_id === editor.user_id ? editor : await this.users.byId(editor.realm_id, doc.sender_id);
    const realm = await this.realms.byId(editor.realm_id);
    const groups = realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings();
    const settings = realm ? realmMessagingSettingsOf(realm) : DEFAULT_REALM_MESSAGING_SETTINGS;
    return {
      realmId: editor.realm_id,
      messageId: doc.id,
      now,
      actor: userFactsOf(editor),
      location: doc.type === 'stream' ? { streamId: doc.stream_id!, topic: doc.subject } : null,
      channelGroups: channel ? channel.group_settings : null,
      senderIsOwnBot: sender !== null && sender.is_bot && sender.bot_owner_id === editor.user_id,
      canDeleteAnyMessageGroup: groups.can_delete_any_message_group,
      canDeleteOwnMessageGroup: groups.can_delete_own_message_group,
      deleteLimitSeconds: settings.message_content_delete_limit_seconds,
    };
  }

  /** The first message of the organization sent after `cutoff` (seconds): one indexed lookup. */
  private async firstMessageIdSentAfter(realmId: number, cutoff: number): Promise<number | null> {
    const [first] = await this.readStore.find<MessageDocument>(MESSAGES, {
      where: { realm_id: realmId, timestamp: { $gt: cutoff } },
      orderBy: [{ field: 'timestamp', direction: 'asc' }],
      limit: 1,
    });
    if (!first) return null;
    // Messages sent within that same second: the smallest id of them (document ids sort as text).
    const sameSecond = await this.readStore.find<MessageDocument>(MESSAGES, { where: { realm_id: realmId, timestamp: first.timestamp } });
    return Math.min(...sameSecond.map((d) => d.id));
  }

  private async topicPolicies(streamId: number, topic: string): Promise<Record<number, VisibilityPolicy>> {
    const docs = await this.readStore.find<UserTopicDocument>(USER_TOPICS, { where: { stream_id: streamId, topic_key: topic.toLowerCase() } });
    return Object.fromEntries(docs.map((d) => [d.user_id, d.visibility_policy as VisibilityPolicy]));
  }

  /** The new content's possible mentions and channel links, and the wildcard-mention facts (as on send). */
  private async loadContentFacts(facts: Omit<EditMessageFacts, 'currentContentSha256'>, editor: UserDocument, content: string, doc: MessageDocument): Promise<void> {
    const realmId = editor.realm_id;
    const references = possibleReferences(content);
    const users = new Map<number, UserDocument>();
    for (const id of references.ids) {
      const user = await this.users.byId(realmId, id);
      if (user) users.set(user.user_id, user);
    }
    const names = new Set(references.names);
    if (names.size > 0) for (const user of await this.users.list(realmId)) if (names.has(user.full_name.toLowerCase())) users.set(user.user_id, user);
    facts.mentionables = [...users.values()].map(userFactsOf);
    facts.linkifiers = await this.linkifiers.facts(realmId);
    facts.alertWords = await this.alertWords.wordsInRealm(realmId);
    facts.mentionableGroups = await this.groups.mentionable(realmId, references.groupNames, { userId: editor.user_id, role: editor.role_name });
    if (references.channelNames.length > 0) {
      const actor = { realmId, userId: editor.user_id, role: editor.role_name, isBot: editor.is_bot };
      for (const channel of (await this.channels.byNames(realmId, references.channelNames)).values()) {
        if (await this.channels.canAccess(actor, channel)) facts.linkableChannels.push({ id: channel.stream_id, name: channel.name });
      }
    }
    if (references.wildcards) {
      const sender: UserFacts = userFactsOf(editor);
      facts.canMentionManyUsers = isInGroupSetting(sender, { system: facts.realmGroups.can_mention_many_users_group });
      if (doc.type === 'stream') facts.topicParticipantIds = await this.userMessages.topicParticipants(realmId, doc.stream_id!, doc.subject);
    }
  }
}

/** The topic an edit names, as the decider will read it (strip, "general chat" is the empty topic, truncated). */
export const normalizedEditTopic = (raw: string): string => truncateTopic(editedTopic(raw));
