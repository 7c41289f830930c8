import { MESSAGE_FLAG_BITS as F, VISIBILITY_POLICY } from '@app/domain';
import { aggregateUnread, topicPolicyKey } from './unread.queries';

describe('aggregateUnread (aggregate_unread_data)', () => {
  const row = (id: number, o: { streamId?: number; topic?: string; dmKey?: string; flags?: number; senderId?: number }) => ({
    id, senderId: o.senderId ?? 11, streamId: o.streamId ?? null, topic: o.topic ?? null, dmKey: o.dmKey ?? null, flags: o.flags ?? 0,
  });

  it('groups by conversation and counts, leaving out muted channels from the count', () => {
    const rows = [
      row(1, { streamId: 5, topic: 'Greetings' }),
      row(2, { streamId: 5, topic: 'greetings', flags: F.mentioned }),
      row(3, { streamId: 6, topic: 'x', flags: F.stream_wildcard_mentioned }),
      row(4, { dmKey: '10,11' }),
      row(5, { dmKey: '10' }),
      row(6, { dmKey: '10,11,12', flags: F.stream_wildcard_mentioned }),
      row(7, { streamId: 7, topic: 'gone' }),
    ];
    expect(aggregateUnread(10, rows, { subscribed: new Set([5, 6]), muted: new Set([6]), oldUnreadsMissing: false })).toEqual({
      pms: [
        { other_user_id: 10, sender_id: 10, unread_message_ids: [5] },
        { other_user_id: 11, sender_id: 11, unread_message_ids: [4] },
      ],
      streams: [
        { stream_id: 5, topic: 'Greetings', unread_message_ids: [1, 2] },
        { stream_id: 6, topic: 'x', unread_message_ids: [3] },
      ],
      huddles: [{ user_ids_string: '10,11,12', unread_message_ids: [6] }],
      mentions: [2, 6],
      count: 5,
      old_unreads_missing: false,
    });
  });

  it('applies topic policies as is_row_muted: muted topics leave count and wildcard mentions, unmuted or followed topics of muted channels stay', () => {
    const rows = [
      row(1, { streamId: 5, topic: 'Muted', flags: F.stream_wildcard_mentioned }),
      row(2, { streamId: 5, topic: 'open' }),
      row(3, { streamId: 6, topic: 'Unmuted', flags: F.topic_wildcard_mentioned }),
      row(4, { streamId: 6, topic: 'followed' }),
      row(5, { streamId: 6, topic: 'other', flags: F.mentioned }),
    ];
    const topicPolicies = new Map([
      [topicPolicyKey(5, 'muted'), VISIBILITY_POLICY.MUTED],
      [topicPolicyKey(6, 'unmuted'), VISIBILITY_POLICY.UNMUTED],
      [topicPolicyKey(6, 'Followed'), VISIBILITY_POLICY.FOLLOWED],
    ]);
    const result = aggregateUnread(10, rows, { subscribed: new Set([5, 6]), muted: new Set([6]), topicPolicies, oldUnreadsMissing: false });
    // Muted messages are still listed by topic.
    expect(result.streams.map((s) => s.unread_message_ids)).toEqual([[1], [2], [4], [5], [3]]);
    expect(result.count).toBe(3); // 2, 3, 4
    expect(result.mentions).toEqual([3, 5]); // a personal mention counts even where muting hides the message
  });

  it('is empty without unread messages', () => {
    expect(aggregateUnread(10, [], { subscribed: new Set(), muted: new Set(), oldUnreadsMissing: false })).toEqual({
      pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false,
    });
  });
});
