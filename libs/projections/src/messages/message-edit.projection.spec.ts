import { MESSAGE_FLAG_BITS as F, type MessageContentEdited, type MessageDeleted, type MessagesMoved } from '@app/domain';
import { messageSent, recorded, replay } from '@app/testing';
import { messagesProjection } from './messages.projection';
import { USER_MESSAGE_EVENT_TYPES, userMessageChanges } from './user-messages.projection';

const AT = '2026-01-01T00:10:00.000Z';
const edited = (overrides: Partial<MessageContentEdited['data']> = {}): MessageContentEdited => ({
  type: 'MessageContentEdited',
  data: {
    realmId: 1, messageId: 100, editorId: 10, prevContent: 'hello', content: 'hi @**Cordelia Lear**', prevRenderedContent: '<p>hello</p>',
    renderedContent: '<p>hi <span class="user-mention">@Cordelia Lear</span></p>', isMeMessage: false, hasLink: true, hasImage: false, hasAttachment: false,
    mentionedUserIds: [11], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [], at: AT, ...overrides,
  },
});
const moved = (overrides: Partial<MessagesMoved['data']> = {}): MessagesMoved => ({
  type: 'MessagesMoved',
  data: {
    realmId: 1, targetMessageId: 100, messageIds: [100, 101], propagateMode: 'change_all', origStreamId: 5, origTopic: 'greetings', streamId: 6,
    streamName: 'Verona', topic: 'moved', resolution: null, userIdsLosingRows: [11], userIdsGainingRows: [], editorId: 2, at: AT, ...overrides,
  },
});
const deleted: MessageDeleted = {
  type: 'MessageDeleted',
  data: { realmId: 1, messageId: 100, senderId: 10, messageType: 'stream', streamId: 5, topic: 'greetings', actorId: 10, at: AT },
};

describe('messagesProjection: edits and deletes', () => {
  it('a content edit replaces content and rendering, sets last_edit_timestamp and records edit_history (newest first)', () => {
    const docs = replay(messagesProjection, recorded([messageSent(), edited(), edited({ prevContent: 'hi @**Cordelia Lear**', prevRenderedContent: '<p>hi <span class="user-mention">@Cordelia Lear</span></p>', content: 'v3', renderedContent: '<p>v3</p>', at: '2026-01-01T00:20:00.000Z' })]));
    expect(docs.get('100')).toMatchObject({
      content: 'v3', rendered_content: '<p>v3</p>', last_edit_timestamp: 1767226800,
      edit_history: [
        { user_id: 10, timestamp: 1767226800, prev_content: 'hi @**Cordelia Lear**', prev_rendered_content: '<p>hi <span class="user-mention">@Cordelia Lear</span></p>' },
        { user_id: 10, timestamp: 1767226200, prev_content: 'hello', prev_rendered_content: '<p>hello</p>' },
      ],
    });
  });

  it('a move does not rewrite documents (the message index holds where messages are)', () => {
    expect(messagesProjection.handles).not.toContain('MessagesMoved');
  });

  it('a delete removes the document; redelivery is harmless', () => {
    const events = recorded([messageSent(), deleted]);
    expect(replay(messagesProjection, events).has('100')).toBe(false);
    expect(replay(messagesProjection, [...events, events[1]]).has('100')).toBe(false);
  });
});

describe('user-messages projection: edits, moves and deletes (pure)', () => {
  it('handles them', () => expect(USER_MESSAGE_EVENT_TYPES).toEqual(expect.arrayContaining(['MessagesMoved', 'MessageContentEdited', 'MessageDeleted'])));

  it('a move of any size is ONE bulk change, with its history and the rows users lose or gain', () => {
    const [event] = recorded([moved({ messageIds: Array.from({ length: 10_000 }, (_, i) => i + 1) })]);
    const changes = userMessageChanges(event);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ type: 'messages-moved', streamId: 6, topic: 'moved', removeRowsOf: [11], history: { userId: 2, timestamp: 1767226200, targetMessageId: 100 } });
    expect(userMessageChanges(recorded([moved({ userIdsLosingRows: [], userIdsGainingRows: [10, 12] })])[0])[0]).toMatchObject({ addRows: { userIds: [10, 12], flags: F.read } });
  });

  it('a content edit recomputes search text, attributes and mentions', () =>
    expect(userMessageChanges(recorded([edited()])[0])).toEqual([
      {
        type: 'message-edited', messageId: 100, searchText: 'hi @**Cordelia Lear**', hasLink: true, hasImage: false, hasAttachment: false,
        mentionedUserIds: [11], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [],
      },
    ]));

  it('with the previous mentions, only those users\' rows are cleared', () =>
    expect(userMessageChanges(recorded([edited({ prevMentionedUserIds: [12], prevTopicWildcardMentionedUserIds: [10, 12], prevStreamWildcardMentioned: false })])[0])[0]).toMatchObject({
      previouslyMentionedUserIds: [10, 12], previousStreamWildcard: false,
    }));

  it('a delete removes the message and its rows', () => expect(userMessageChanges(recorded([deleted])[0])).toEqual([{ type: 'messages-deleted', messageIds: [100] }]));
});
