import type { RecordedEvent } from '@app/application';
import { MESSAGE_FLAG_BITS as F, type ReactionAdded, type ReactionRemoved } from '@app/domain';
import { USER_MESSAGE_EVENT_TYPES, userMessageChanges } from './user-messages.projection';

const AT = '2026-01-01T00:00:00.000Z';
const reaction = { realmId: 1, messageId: 7, userId: 10, emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji' as const, at: AT };
const recorded = (event: ReactionAdded | ReactionRemoved): RecordedEvent =>
  ({ type: event.type, data: event.data, position: 1n, streamId: 'message_reactions-7', revision: 0n, id: 'x', metadata: {}, recordedAt: AT }) as unknown as RecordedEvent;

describe('reactions → per-user state changes (pure): the index counts reactions for has:reaction', () => {
  it('follows both reaction events', () => expect(USER_MESSAGE_EVENT_TYPES).toEqual(expect.arrayContaining(['ReactionAdded', 'ReactionRemoved'])));

  it('an added reaction counts one more', () =>
    expect(userMessageChanges(recorded({ type: 'ReactionAdded', data: { ...reaction, historical: false } }))).toEqual([{ type: 'reactions-counted', messageId: 7, delta: 1 }]));

  it('a reaction without a row also creates the historical row, first', () =>
    expect(userMessageChanges(recorded({ type: 'ReactionAdded', data: { ...reaction, historical: true } }))).toEqual([
      { type: 'flags-changed', userId: 10, selector: { messageIds: [7], createHistorical: [7] }, op: 'add', mask: F.read },
      { type: 'reactions-counted', messageId: 7, delta: 1 },
    ]));

  it('a removed reaction counts one less', () =>
    expect(userMessageChanges(recorded({ type: 'ReactionRemoved', data: reaction }))).toEqual([{ type: 'reactions-counted', messageId: 7, delta: -1 }]));
});
