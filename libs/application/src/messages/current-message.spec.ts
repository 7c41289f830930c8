import type { MessageDocument } from './message.documents';
import { currentMessage } from './message-format';

const doc: MessageDocument = {
  id: 100, realm_id: 1, sender_id: 10, type: 'stream', stream_id: 5, stream_name: 'Denmark', subject: 'greetings', dm_user_ids: null, recipient_id: 15,
  content: 'v2', rendered_content: '<p>v2</p>', client: 'test', timestamp: 1000, is_me_message: false, topic_links: [], last_edit_timestamp: 1010,
  edit_history: [{ user_id: 10, timestamp: 1010, prev_content: 'v1', prev_rendered_content: '<p>v1</p>' }],
};

describe('currentMessage: a document where the message is now', () => {
  it('is the document itself without moves', () => expect(currentMessage(doc, undefined)).toBe(doc));

  it('takes channel and topic from the index and merges the moves into edit_history, newest first', () => {
    const now = currentMessage(doc, {
      streamId: 6, topic: 'moved', lastMovedAt: 1020,
      moves: [
        { user_id: 10, timestamp: 1010, target_message_id: 100, prev_topic: 'greetings', topic: 'renamed' },
        { user_id: 2, timestamp: 1020, target_message_id: 99, prev_stream: 5, stream: 6, prev_topic: 'renamed', topic: 'moved' },
      ],
    });
    expect(now).toMatchObject({ stream_id: 6, subject: 'moved', stream_name: null, recipient_id: 18, last_moved_timestamp: 1020 });
    expect(now.edit_history).toEqual([
      { user_id: 2, timestamp: 1020, prev_stream: 5, stream: 6, prev_topic: 'renamed', topic: 'moved' },
      // A content edit and a move made at once are one entry.
      { user_id: 10, timestamp: 1010, prev_content: 'v1', prev_rendered_content: '<p>v1</p>', prev_topic: 'greetings', topic: 'renamed' },
    ]);
    expect(currentMessage(now, { streamId: 6, topic: 'moved', lastMovedAt: 1020, moves: [] })).toEqual(now);
  });

  it('is idempotent', () => {
    const location = { streamId: 5, topic: 'x', lastMovedAt: 1030, moves: [{ user_id: 2, timestamp: 1030, target_message_id: 100, prev_topic: 'greetings', topic: 'x' }] };
    const once = currentMessage(doc, location);
    expect(currentMessage(once, location)).toEqual(once);
    expect(doc.edit_history).toEqual([{ user_id: 10, timestamp: 1010, prev_content: 'v1', prev_rendered_content: '<p>v1</p>' }]);
    currentMessage(doc, { ...location, moves: [{ ...location.moves[0], timestamp: 1010, user_id: 10 }] });
    expect(doc.edit_history).toEqual([{ user_id: 10, timestamp: 1010, prev_content: 'v1', prev_rendered_content: '<p>v1</p>' }]);
  });
});
