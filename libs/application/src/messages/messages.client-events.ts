import { Inject, Injectable } from '@nestjs/common';
import {
  type FlagSelection,
  flagsList,
  MESSAGE_FLAG_BITS,
  type MessageContentEdited,
  type MessageDeleted,
  type MessageEditEvent,
  type MessageFlagsChanged,
  type MessageSent,
  messageStream,
  type MessagesMoved,
  type UserTopicVisibilityPolicyChanged,
  topicLinks,
  unixSeconds,
} from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { LinkifierQueries } from '../linkifiers/linkifier.queries';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';
import type { RecordedEvent } from '../ports/event-store.port';
import { USER_MESSAGE_STORE } from '../ports/tokens';
import type { NarrowTerm, UserMessageStorePort } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { UserQueries } from '../users/user.queries';
import { UserTopicQueries } from './user-topics.queries';
import { MessageAccess } from './message-access';
import { MessageQueries } from './message.queries';
import type { MessageDocument } from './message.documents';

/**
 * The messaging events: `message` (do_send_messages), `update_message_flags`, `user_topic`,
 * `update_message` and `delete_message` (do_update_message, do_delete_messages).
 */
@Injectable()
export class MessagesClientEvents implements AreaClientEvents {
  constructor(
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    private readonly messages: MessageQueries,
    private readonly access: MessageAccess,
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly linkifiers: LinkifierQueries,
    private readonly userTopics: UserTopicQueries,
  ) {}

  clientEvents(): ClientEventMapperList {
    return {
      // Both read the message store: skipped when no recipient has a queue here.
      MessageSent: (e: Recorded<MessageSent>, c: ClientEventMapperContext) => (e.data.recipientIds.some((id) => c.hasQueues(id)) ? this.messageSent(e) : []),
      MessageFlagsChanged: (e: Recorded<MessageFlagsChanged>, c: ClientEventMapperContext) => (c.hasQueues(e.data.userId) ? this.flagsChanged(e) : []),
      UserTopicVisibilityPolicyChanged: (e: Recorded<UserTopicVisibilityPolicyChanged>, c: ClientEventMapperContext) => this.userTopicChanged(e, c),
      MessageContentEdited: (e: Recorded<MessageContentEdited>, c: ClientEventMapperContext) => this.contentEdited(e, c),
      MessagesMoved: (e: Recorded<MessagesMoved>, c: ClientEventMapperContext) => this.moved(e, c),
      MessageDeleted: (e: Recorded<MessageDeleted>, c: ClientEventMapperContext) => this.deleted(e, c),
    };
  }

  /**
   * do_set_user_topic_visibility_policy: the deprecated `muted_topics` (the whole list, which
   * queues that asked for `user_topic` do not get) then `user_topic`, for every change (a send's
   * automatic follow included) but where the event says to skip it: a move clearing the original
   * topic's policies (Zulip's skip_muted_topics_event; events recorded before the flag existed: a
   * move's, on the message's stream without `messageId`).
   */
  private async userTopicChanged(e: Recorded<UserTopicVisibilityPolicyChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const userTopic = toUser(d.userId, { type: 'user_topic', stream_id: d.streamId, topic_name: d.topic, last_updated: unixSeconds(d.at), visibility_policy: d.newPolicy });
    const skipMutedTopics = d.skipMutedTopicsEvent ?? (e.streamId.startsWith('message-') && d.messageId === null);
    if (skipMutedTopics || !c.hasQueues(d.userId)) return userTopic;
    const user = await this.users.byId(d.realmId, d.userId);
    if (!user) return userTopic;
    const actor = { realmId: d.realmId, userId: d.userId, role: user.role_name, isBot: user.is_bot };
    return [...toUser(d.userId, { type: 'muted_topics', muted_topics: await this.userTopics.mutedTopics(actor) }), ...userTopic];
  }

  /**
   * do_send_messages: one event per recipient with their flags; the sending queue (local echo)
   * also gets `local_message_id`. The message is formatted as GET /messages formats it, checked
   * against nobody's access: the recipients are those the send decided, and the sender need not
   * be one of them (Notification Bot's notices in private channels it is not subscribed to).
   */
  private async messageSent(e: Recorded<MessageSent>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const message = await this.messages.deliveredMessage(d.realmId, d.messageId);
    if (!message) return [];
    const { flags: _flags, ...shared } = message;
    const read = new Set(d.readUserIds);
    const mentioned = new Set(d.mentionedUserIds);
    const topicWildcard = new Set(d.topicWildcardMentionedUserIds);
    const alerted = new Set(d.alertWordUserIds ?? []);
    const flagsOf = (userId: number) => {
      let mask = 0;
      if (alerted.has(userId)) mask |= MESSAGE_FLAG_BITS.has_alert_word;
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
   * Marking a channel or topic read names the rows it changed (do_mark_stream_messages_as_read:
   * `changedIds`; an event recorded before those were kept: see channelSelectionIds); marking
   * everything read names none and says `all: true` (do_mark_all_as_read: "the client reloads
   * anyway"). Listing rows that were already read made zulip-terminal count them read a second
   * time (its unread counts went negative).
   */
  private async flagsChanged(e: Recorded<MessageFlagsChanged>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    if (d.selection.kind === 'all') {
      return [{ userIds: [d.userId], event: { type: 'update_message_flags', op: d.op, operation: d.op, flag: d.flag, messages: [], all: true } as { type: string } }];
    }
    const ids = d.selection.kind === 'ids' ? d.selection.messageIds : (d.changedIds ?? (await this.channelSelectionIds(d, d.selection)));
    const event: Record<string, unknown> = { type: 'update_message_flags', op: d.op, operation: d.op, flag: d.flag, messages: ids, all: false };
    if (d.op === 'remove' && d.flag === 'read' && ids.length > 0) {
      // Where each message is now: a moved message is counted unread in its new channel and topic.
      const docs = await this.access.documents(ids);
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
   * The ids of a channel selection recorded without `changedIds` (before 2026-11-26). The rows it
   * changed cannot be told apart any more (the projection ran), so the event lists the user's
   * messages in the range that now have the flag set (removed: unset), newest 50,000: a superset
   * of what changed.
   */
  private async channelSelectionIds(d: MessageFlagsChanged['data'], selection: Extract<FlagSelection, { kind: 'channel' }>): Promise<number[]> {
    const terms: NarrowTerm[] = [
      { kind: 'flags', mask: MESSAGE_FLAG_BITS[d.flag], set: d.op === 'add' ? 'all' : 'none', negated: false },
      { kind: 'stream', streamId: selection.streamId, negated: false },
    ];
    if (selection.topic !== null) terms.push({ kind: 'topic', topic: selection.topic, negated: false });
    const matches = await this.userMessages.findMessages(
      { realmId: d.realmId, userId: d.userId, scope: 'user', terms },
      { direction: 'older', fromId: selection.upToMessageId, limit: 50_000 },
    );
    return matches.map((m) => m.id).sort((a, b) => a - b);
  }

  /**
   * Who of `userIds` (limited to users with a queue here) has a row for the message, with their
   * flags for it (do_update_message's per-user `flags`); for a move, also those with a row for
   * one of the other moved messages only. The holders and their flags are read in one call
   * (flagsForUsers), and for a move of several messages the others' rows in a second.
   */
  private async rowHolders(userIds: Iterable<number>, messageId: number, c: ClientEventMapperContext, messageIds: number[] = [messageId]): Promise<Map<number, number>> {
    const candidates = [...new Set(userIds)].filter((id) => c.hasQueues(id));
    if (candidates.length === 0) return new Map();
    const flags = await this.userMessages.flagsForUsers(candidates, [messageId]);
    const others = messageIds.length === 1 ? [] : candidates.filter((id) => !flags.has(id));
    const otherRows = others.length === 0 ? new Map<number, Map<number, number>>() : await this.userMessages.flagsForUsers(others, messageIds);
    const out = new Map<number, number>();
    for (const userId of candidates) {
      const own = flags.get(userId)?.get(messageId);
      if (own !== undefined) out.set(userId, own);
      // A user with rows for other moved messages only (a notice sent into the topic later) gets the event
      // too, with the flags Zulip gives those without a row for the target (subscriber_info: read).
      else if ((otherRows.get(userId)?.size ?? 0) > 0) out.set(userId, MESSAGE_FLAG_BITS.read);
    }
    return out;
  }

  /**
   * event_recipient_ids_for_action_on_messages: a channel's subscribers, and for a public channel
   * also the non-guests with a queue here who are not subscribed (any of them may hold a row: they
   * were subscribed when the message was sent, or it moved to them); rowHolders keeps those with rows.
   */
  private async candidates(doc: MessageDocument, realmId: number, c: ClientEventMapperContext, extraChannelId?: number): Promise<number[]> {
    if (doc.type === 'private') return doc.dm_user_ids ?? [];
    const ids: number[] = [];
    let unsubscribed = false;
    for (const channelId of new Set([doc.stream_id!, extraChannelId ?? doc.stream_id!])) {
      ids.push(...(await this.subscriptions.subscriberIds(realmId, channelId)));
      const channel = await this.channels.byId(realmId, channelId);
      if (channel && !channel.invite_only) unsubscribed = true;
    }
    if (unsubscribed) {
      const subscribed = new Set(ids);
      for (const userId of c.usersWithQueues()) {
        if (subscribed.has(userId)) continue;
        const user = await this.users.byId(realmId, userId);
        if (user && user.is_active && user.role_name !== 'guest') ids.push(userId);
      }
    }
    return ids;
  }

  /**
   * do_update_message's second audience: when the edited message's channel has history public to
   * subscribers, the subscribers of its (new) channel without a row for it get the event too, with
   * flags ["read"] (subscriber_info), so that a client showing old messages of a channel it reads
   * sees them change. For a move to another channel, also the old channel's subscribers who are not
   * in the new one; never those losing the messages (they get delete_message) nor guests subscribed
   * to the new channel only.
   */
  private async addHistorySubscribers(holders: Map<number, number>, realmId: number, origChannelId: number, channelId: number, losing: number[], c: ClientEventMapperContext): Promise<void> {
    const orig = await this.channels.byId(realmId, origChannelId);
    if (!orig?.history_public_to_subscribers) return;
    const target = await this.subscriptions.subscriberIds(realmId, channelId);
    let notified = target;
    if (channelId !== origChannelId) {
      const old = new Set(await this.subscriptions.subscriberIds(realmId, origChannelId));
      const inTarget = new Set(target);
      const newGuests = new Set<number>();
      for (const userId of target) if (!old.has(userId) && c.hasQueues(userId) && (await this.users.byId(realmId, userId))?.is_guest) newGuests.add(userId);
      notified = [...target.filter((id) => !newGuests.has(id)), ...[...old].filter((id) => !inTarget.has(id))];
    }
    const excluded = new Set(losing);
    for (const userId of notified) {
      if (holders.has(userId) || excluded.has(userId) || !c.hasQueues(userId)) continue;
      holders.set(userId, MESSAGE_FLAG_BITS.read);
    }
  }

  private deliverPerUser(holders: Map<number, number>, event: Record<string, unknown>): ClientEventDelivery[] {
    const base = { type: 'update_message', ...event };
    return [{ userIds: [...holders.keys()], event: base, perUser: (userId) => ({ ...base, flags: flagsList(holders.get(userId) ?? 0) }) }];
  }

  /**
   * do_update_message, content part: the content fields, and for a channel message its channel
   * (`stream_id`, `stream_name`, present for every edit of a channel message since feature level
   * 112) but none of the move fields (`subject`, `orig_subject`, `propagate_mode`, `topic_links`).
   * An edit that also moves the message is one client event, sent by the move's mapper.
   */
  private async contentEdited(e: Recorded<MessageContentEdited>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    if (await this.sameEditMovedToo(e, c)) return [];
    const [doc] = await this.access.documents([d.messageId]);
    if (!doc) return [];
    // event_recipient_ids_for_action_on_messages; those without a row get ["read"] (subscriber_info).
    const audience = await this.access.audience(doc, c, { flags: true });
    const holders = new Map([...audience].map(([userId, flags]) => [userId, flags ?? MESSAGE_FLAG_BITS.read]));
    return this.deliverPerUser(holders, {
      user_id: d.editorId,
      edit_timestamp: unixSeconds(d.at),
      message_id: d.messageId,
      message_ids: [d.messageId],
      rendering_only: false,
      ...(doc.type === 'stream' ? { stream_id: doc.stream_id, stream_name: doc.stream_name } : {}),
      ...contentFields(d),
    });
  }

  /** Whether the edit that recorded this content change also moved the message (the next event of its append). */
  private async sameEditMovedToo(e: Recorded<MessageContentEdited>, c: ClientEventMapperContext): Promise<boolean> {
    const { events } = await c.events.readStream(e.streamId, { fromRevision: e.revision + 1n, maxCount: 1 });
    const next = events[0];
    return next !== undefined && next.type === 'MessagesMoved' && sameAppend(e, next);
  }

  /** The content change recorded by the same edit as this move (the previous event of its append), if any. */
  private async sameEditContent(e: Recorded<MessagesMoved>, c: ClientEventMapperContext): Promise<MessageContentEdited['data'] | undefined> {
    if (e.revision === 0n) return undefined;
    const { events } = await c.events.readStream(e.streamId, { fromRevision: e.revision - 1n, maxCount: 1 });
    const previous = events[0];
    return previous !== undefined && isA('MessageContentEdited')(previous) && sameAppend(previous, e) ? previous.data : undefined;
  }

  /**
   * do_update_message, move part: `update_message` to those who keep or gain rows, and
   * `delete_message` of the moved messages to those who lose them (they lost access). Zulip's
   * shape: `propagate_mode` and the old channel (`stream_id`, `stream_name`) for every move,
   * `new_stream_id` and `orig_subject` when the channel changed (zulip-flutter's move parser
   * requires `orig_subject` for any move), `orig_subject`/`subject`/`topic_links` when the topic
   * changed, and the content fields when the same edit changed the content.
   */
  private async moved(e: Recorded<MessagesMoved>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const [doc] = await this.access.documents([d.targetMessageId]);
    if (!doc) return [];
    const origChannel = await this.channels.byId(d.realmId, d.origStreamId);
    const content = await this.sameEditContent(e, c);
    const holders = await this.rowHolders([...(await this.candidates(doc, d.realmId, c, d.origStreamId)), ...d.userIdsGainingRows], d.targetMessageId, c, d.messageIds);
    await this.addHistorySubscribers(holders, d.realmId, d.origStreamId, d.streamId, d.userIdsLosingRows, c);
    const out = this.deliverPerUser(holders, {
      user_id: d.editorId,
      edit_timestamp: unixSeconds(d.at),
      message_id: d.targetMessageId,
      message_ids: d.messageIds,
      rendering_only: false,
      propagate_mode: d.propagateMode,
      stream_id: d.origStreamId,
      stream_name: origChannel?.name ?? '',
      ...(d.streamId !== d.origStreamId ? { new_stream_id: d.streamId, orig_subject: d.origTopic } : {}),
      ...(d.topic !== d.origTopic ? { orig_subject: d.origTopic, subject: d.topic, topic_links: topicLinks(d.topic, await this.linkifiers.facts(d.realmId)) } : {}),
      ...(content ? contentFields(content) : {}),
    });
    if (d.userIdsLosingRows.length > 0) {
      out.push({
        userIds: d.userIdsLosingRows,
        event: { type: 'delete_message', message_type: 'stream', message_ids: d.messageIds, stream_id: d.origStreamId, topic: d.origTopic },
      });
    }
    return out;
  }

  /**
   * do_delete_messages (bulk_message_deletion form). The rows are gone once the projections ran,
   * so a channel message's event goes to the channel's subscribers (and the sender), and a direct
   * message's to the recipients its MessageSent named (read back from the message's own stream).
   */
  private async deleted(e: Recorded<MessageDeleted>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    // zerver/lib/retention.py archive_messages deletes without telling clients: they find the messages gone.
    if (d.reason === 'retention') return [];
    if (d.messageType === 'stream' && d.streamId !== null) {
      const subscribers = await this.subscriptions.subscriberIds(d.realmId, d.streamId);
      // A public channel's message also goes to the non-guests who held a row and have left the channel
      // (event_recipient_ids_for_action_on_messages): those its send and its moves gave rows, read back
      // from the message's own stream (the rows are gone).
      const channel = await this.channels.byId(d.realmId, d.streamId);
      const former: number[] = [];
      if (channel && !channel.invite_only) {
        const subscribed = new Set(subscribers);
        for (const userId of await this.rowHoldersFromLog(d.messageId, c)) {
          if (subscribed.has(userId) || !c.hasQueues(userId)) continue;
          const user = await this.users.byId(d.realmId, userId);
          if (user && user.is_active && user.role_name !== 'guest') former.push(userId);
        }
      }
      return [
        {
          userIds: [...new Set([...subscribers, ...former, d.senderId])].filter((id) => c.hasQueues(id)),
          event: { type: 'delete_message', message_type: 'stream', message_ids: [d.messageId], stream_id: d.streamId, topic: d.topic ?? '' },
        },
      ];
    }
    const { events } = await c.events.readStream(messageStream(d.messageId), { maxCount: 1 });
    const sent = events.find(isA('MessageSent'));
    const recipients = sent ? [...new Set([...sent.data.recipientIds, d.senderId])] : [d.senderId];
    return [{ userIds: recipients, event: { type: 'delete_message', message_type: 'private', message_ids: [d.messageId] } }];
  }

  /** Who got rows for a message by its send and by the moves of it recorded on its stream (gained, lost). */
  private async rowHoldersFromLog(messageId: number, c: ClientEventMapperContext): Promise<Set<number>> {
    const { events } = await c.events.readStream(messageStream(messageId), { maxCount: 1000 });
    const holders = new Set<number>();
    for (const event of events) {
      if (isA('MessageSent')(event)) for (const id of event.data.recipientIds) holders.add(id);
      if (isA('MessagesMoved')(event)) {
        const moved = event.data;
        for (const id of moved.userIdsGainingRows) holders.add(id);
        for (const id of moved.userIdsLosingRows) holders.delete(id);
      }
    }
    return holders;
  }
}

/** The content fields of an `update_message` event. */
const contentFields = (d: MessageContentEdited['data']) => ({
  orig_content: d.prevContent,
  orig_rendered_content: d.prevRenderedContent,
  content: d.content,
  rendered_content: d.renderedContent,
  is_me_message: d.isMeMessage,
});

/** Two events of one append (one edit): the same command, or without one the same editor and time. */
/**
 * A guard for events read back from a message's stream (`message-<id>`, whose events are
 * MessageEditEvent's): the event of that type, typed by it.
 */
const isA =
  <T extends MessageEditEvent['type']>(type: T) =>
  (event: RecordedEvent): event is Recorded<Extract<MessageEditEvent, { type: T }>> =>
    event.type === type;

function sameAppend(a: RecordedEvent, b: RecordedEvent): boolean {
  if (a.metadata.commandId !== undefined || b.metadata.commandId !== undefined) return a.metadata.commandId === b.metadata.commandId;
  return a.data.editorId === b.data.editorId && a.data.at === b.data.at;
}
