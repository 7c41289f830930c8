import { Inject, Injectable } from '@nestjs/common';
import { type Actor, isMutedByVisibility, MESSAGE_FLAG_BITS as F, NoSuchUserError, type VisibilityPolicy } from '@app/domain';
import { USER_MESSAGE_STORE } from '../ports/tokens';
import type { UnreadMessage, UserMessageStorePort } from '../ports/user-message-store.port';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { UserTopicQueries } from './user-topics.queries';

/** zerver/lib/message.py MAX_UNREAD_MESSAGES. */
export const MAX_UNREAD_MESSAGES = 50_000;

export type UnreadMessagesResult = {
  pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  count: number;
  old_unreads_missing: boolean;
};

const ALWAYS_MENTIONED = F.mentioned | F.group_mentioned;
const WILDCARD_MENTIONED = F.stream_wildcard_mentioned | F.topic_wildcard_mentioned;

/**
 * POST /register's `unread_msgs` (zerver/lib/message.py get_raw_unread_data +
 * aggregate_unread_data): the user's newest 50,000 unread messages (`old_unreads_missing` when
 * there may be older ones), leaving out channels the user is no longer subscribed to, grouped
 * by conversation (one-on-one by the other user, group conversations by "1,2,3", channel
 * messages by channel and topic compared case-insensitively, spelled as in the first one).
 * `mentions` has personal and group mentions, and wildcard mentions of messages muting does not
 * hide; `count` leaves out what muting hides (is_row_muted: muted topics, and muted channels
 * except their unmuted or followed topics). Muted messages stay listed under `streams`.
 */
@Injectable()
export class UnreadQueries {
  constructor(
    private readonly subscriptions: SubscriptionQueries,
    private readonly userTopics: UserTopicQueries,
    @Inject(USER_MESSAGE_STORE) private readonly store: UserMessageStorePort,
  ) {}

  async unreadMsgs(actor: Actor, limit = MAX_UNREAD_MESSAGES): Promise<UnreadMessagesResult> {
    if (actor.userId === null) throw new NoSuchUserError();
    const userId = actor.userId;
    const [rows, subscriptions, topics] = await Promise.all([
      this.store.unreadMessages(userId, limit),
      this.subscriptions.activeSubscriptionsOf(userId),
      this.userTopics.policiesOf(userId),
    ]);
    const muted = new Set(subscriptions.filter((s) => s.is_muted).map((s) => s.channel_id));
    const subscribed = new Set(subscriptions.map((s) => s.channel_id));
    const topicPolicies = new Map(topics.map((t) => [topicPolicyKey(t.stream_id, t.topic_name), t.visibility_policy as VisibilityPolicy]));
    return aggregateUnread(userId, rows, { subscribed, muted, topicPolicies, oldUnreadsMissing: rows.length === limit });
  }
}

/** How aggregateUnread looks up a topic's visibility policy: "<channel id>:<lower-cased topic>". */
export const topicPolicyKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`;

/** aggregate_unread_data over rows sorted by id (pure, for tests). */
export function aggregateUnread(
  userId: number,
  rows: UnreadMessage[],
  o: { subscribed: Set<number>; muted: Set<number>; topicPolicies?: Map<string, VisibilityPolicy>; oldUnreadsMissing: boolean },
): UnreadMessagesResult {
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (const row of rows) {
    if (row.streamId !== null) {
      if (!o.subscribed.has(row.streamId)) continue;
      const topic = row.topic ?? '';
      const key = `${row.streamId}\u0000${topic.toLowerCase()}`;
      let entry = streams.get(key);
      if (!entry) streams.set(key, (entry = { stream_id: row.streamId, topic, unread_message_ids: [] }));
      entry.unread_message_ids.push(row.id);
      const isMuted = isMutedByVisibility(o.topicPolicies?.get(topicPolicyKey(row.streamId, topic)) ?? 0, o.muted.has(row.streamId));
      if (!isMuted) count++;
      if ((row.flags & ALWAYS_MENTIONED) !== 0 || ((row.flags & WILDCARD_MENTIONED) !== 0 && !isMuted)) mentions.push(row.id);
      continue;
    }
    const participants = (row.dmKey ?? '').split(',').filter(Boolean).map(Number);
    if (participants.length <= 2) {
      const other = participants.find((id) => id !== userId) ?? userId;
      const list = pms.get(other);
      if (list) list.push(row.id);
      else pms.set(other, [row.id]);
    } else {
      const list = huddles.get(row.dmKey!) ?? [];
      list.push(row.id);
      huddles.set(row.dmKey!, list);
    }
    count++;
    if ((row.flags & (ALWAYS_MENTIONED | WILDCARD_MENTIONED)) !== 0) mentions.push(row.id);
  }
  const byKey = <K, V>(m: Map<K, V>, cmp: (a: K, b: K) => number) => [...m.entries()].sort(([a], [b]) => cmp(a, b));
  return {
    pms: byKey(pms, (a, b) => a - b).map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.entries()]
      .sort(([, a], [, b]) => a.stream_id - b.stream_id || (a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : a.topic.toLowerCase() > b.topic.toLowerCase() ? 1 : 0))
      .map(([, v]) => v),
    huddles: byKey(huddles, (a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    count,
    old_unreads_missing: o.oldUnreadsMissing,
  };
}
