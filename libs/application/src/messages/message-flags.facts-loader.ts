import { Injectable } from '@nestjs/common';
import { type Actor, DomainError, EMPTY_TOPIC_FALLBACK_NAME, type FlagOperation, type FlagSelection, type MessageFlag, planFlagChangeOverIds } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { MessageAccess } from './message-access';
import { MAX_NAMED_CHANGED_IDS, MessageFlagQueries } from './message-flags.queries';

/** A resolved flag change: what the decider records, and how many rows it changes. */
export type ResolvedFlagChange = { flag: MessageFlag; op: FlagOperation; selection: FlagSelection; updatedCount: number; changedIds?: number[] };

/**
 * What the flag commands read before they are decided (zerver/actions/message_flags.py): the
 * user's rows, the channels of messages they are not subscribed to, access to messages that get a
 * historical row, and, for the mark-as-read endpoints, the user's newest message and the count of
 * rows a bounded selection changes, all through query classes. The decision over listed ids is
 * planFlagChangeOverIds.
 */
@Injectable()
export class MessageFlagsFactsLoader {
  constructor(
    private readonly messages: MessageAccess,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly flags: MessageFlagQueries,
  ) {}

  /** The user's flags on these messages, where they have a row. */
  rowsOf(userId: number, messageIds: number[]): Promise<Map<number, number>> {
    return this.flags.flagsOf(userId, messageIds);
  }

  /**
   * do_update_message_flags over listed ids (unique, ascending; `requested` as the request
   * listed them): for `read` + `remove` the channels of the messages the user is not subscribed
   * to; then, for messages that get a historical row, access to each ("Invalid message(s)").
   */
  async overIds(
    actor: Actor,
    userId: number,
    checked: { flag: MessageFlag; op: FlagOperation; mask: number },
    ids: number[],
    rows: ReadonlyMap<number, number>,
    requested: number[],
  ): Promise<ResolvedFlagChange & { processed: number[]; ignoredChannels: number[] }> {
    const unsubscribedChannelOf = new Map<number, number>();
    if (checked.flag === 'read' && checked.op === 'remove' && ids.length > 0) {
      const [docs, subscribed] = await Promise.all([this.messages.documents(ids), this.subscriptions.subscribedChannelIds(userId)]);
      for (const doc of docs) {
        if (doc.type === 'stream' && doc.stream_id !== null && !subscribed.has(doc.stream_id)) unsubscribedChannelOf.set(doc.id, doc.stream_id);
      }
    }
    const plan = planFlagChangeOverIds({ ...checked, ids, requested, rows, unsubscribedChannelOf });
    await this.messages.accessMany(actor, plan.historicalIds);
    return { flag: checked.flag, op: checked.op, selection: plan.selection, updatedCount: plan.changing.length, processed: plan.processed, ignoredChannels: plan.ignoredChannels };
  }

  /**
   * The mark-as-read endpoints: the selection bounded by the user's newest message id, and how
   * many of its rows are unread; for a channel or topic also which (do_mark_stream_messages_as_read
   * names them in its event; do_mark_all_as_read sends `all: true` instead). Null when the user
   * has no messages.
   */
  async readUpTo(actor: Actor, userId: number, selection: (upToMessageId: number) => FlagSelection): Promise<ResolvedFlagChange | null> {
    const upTo = await this.flags.newestMessageId(actor.realmId, userId);
    if (upTo === null) return null;
    const chosen = selection(upTo);
    if (chosen.kind === 'channel') {
      const changedIds = await this.flags.unreadIdsIn(actor.realmId, userId, chosen);
      const updatedCount = changedIds.length < MAX_NAMED_CHANGED_IDS ? changedIds.length : await this.flags.countUnread(userId, chosen);
      return { flag: 'read', op: 'add', selection: chosen, updatedCount, changedIds };
    }
    const updatedCount = await this.flags.countUnread(userId, chosen);
    return { flag: 'read', op: 'add', selection: chosen, updatedCount };
  }

  /** access_stream_by_id ("Invalid channel ID"). */
  async accessChannel(actor: Actor, streamId: number): Promise<void> {
    await this.channels.accessById(actor, streamId);
  }

  /** POST /mark_topic_as_read's topic: the empty-topic display name means the empty topic; "No such topic '<topic>'" when the user has no message in it. */
  async topicOf(actor: Actor, userId: number, streamId: number, topicName: string): Promise<string> {
    const topic = topicName === EMPTY_TOPIC_FALLBACK_NAME ? '' : topicName;
    if (!(await this.flags.topicHasMessages(actor.realmId, streamId, topic, userId))) throw new DomainError(`No such topic '${topic}'`);
    return topic;
  }
}
