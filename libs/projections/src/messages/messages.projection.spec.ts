import { directMessageSent, messageSent, recorded, replay, userTopicPolicyChanged } from '@app/testing';
import { MESSAGE_FLAG_BITS as F } from '@app/domain';
import { messagesProjection, userTopicsProjection } from './messages.projection';
import { rowsOf, userMessageChanges } from './user-messages.projection';

describe('messagesProjection', () => {
  it('stores a channel message as GET /messages needs it', () => {
    const docs = replay(messagesProjection, recorded([messageSent({ renderedContent: '<p>hello</p>', isMeMessage: false })]));
    expect(docs.get('100')).toEqual({
      id: 100, realm_id: 1, sender_id: 10, type: 'stream', stream_id: 5, stream_name: 'Denmark', subject: 'greetings', dm_user_ids: null,
      recipient_id: 15, content: 'hello', rendered_content: '<p>hello</p>', client: 'ZulipMobile', timestamp: 1767225600,
      is_me_message: false, topic_links: [], last_edit_timestamp: null,
    });
  });

  it('stores a direct message with its participants and a recipient id per direction', () => {
    const docs = replay(messagesProjection, recorded([directMessageSent(101, 10, [10, 11]), directMessageSent(102, 11, [10, 11]), directMessageSent(103, 2, [2, 10, 11])]));
    expect(docs.get('101')).toMatchObject({ type: 'private', stream_id: null, subject: '', dm_user_ids: [10, 11], recipient_id: 34 });
    expect(docs.get('102')).toMatchObject({ recipient_id: 31 });
    expect(docs.get('103')!.recipient_id % 3).toBe(2);
  });

  it('is idempotent under redelivery', () => {
    const [event] = recorded([messageSent()]);
    expect(replay(messagesProjection, [event, event])).toEqual(replay(messagesProjection, [event]));
  });
});

describe('userTopicsProjection', () => {
  it('keeps the latest policy and forgets a topic set back to inherit', () => {
    const docs = replay(userTopicsProjection, recorded([
      userTopicPolicyChanged({ topic: 'Greetings', newPolicy: 3 }),
      userTopicPolicyChanged({ userId: 11, newPolicy: 2 }),
      userTopicPolicyChanged({ userId: 11, oldPolicy: 2, newPolicy: 0 }),
    ]));
    expect([...docs.keys()]).toEqual(['10:5:greetings']);
    expect(docs.get('10:5:greetings')).toEqual({ user_id: 10, realm_id: 1, stream_id: 5, topic_name: 'Greetings', topic_key: 'greetings', visibility_policy: 3, last_updated: 1767225600 });
  });
});

describe('user messages (create_user_messages)', () => {
  it('gives every recipient a row with the flags the send named', () =>
    expect(rowsOf(messageSent({ recipientIds: [10, 11, 12], readUserIds: [10], mentionedUserIds: [11], topicWildcardMentionedUserIds: [10, 12], streamWildcardMentioned: true }).data)).toEqual([
      { userId: 10, flags: F.read | F.stream_wildcard_mentioned | F.topic_wildcard_mentioned },
      { userId: 11, flags: F.mentioned | F.stream_wildcard_mentioned },
      { userId: 12, flags: F.stream_wildcard_mentioned | F.topic_wildcard_mentioned },
    ]));

  it('marks direct messages private', () => expect(rowsOf(directMessageSent(101, 10, [10, 11]).data)).toEqual([{ userId: 10, flags: F.read | F.is_private }, { userId: 11, flags: F.is_private }]));

  it('indexes what narrows filter on', () => {
    const [event] = recorded([directMessageSent(101, 11, [2, 10, 11], 'see https://x.test')]);
    expect(userMessageChanges(event)).toMatchObject([{ type: 'message-added', message: { id: 101, streamId: null, topic: null, dmKey: '2,10,11', senderId: 11, searchText: 'see https://x.test' } }]);
    expect(userMessageChanges(recorded([userTopicPolicyChanged()])[0])).toEqual([]);
  });
});
