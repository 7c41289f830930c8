import { deciderSpec } from '@app/testing';
import { type ChangeMessageFlags, checkFlagChange, DomainError, type FlagSelection, MESSAGE_FLAG_BITS, messageFlagsDecider, messageFlagsStream, selectionConditions } from '@app/domain';

const given = deciderSpec(messageFlagsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const change = (data: Partial<ChangeMessageFlags['data']> = {}): ChangeMessageFlags => ({
  type: 'ChangeMessageFlags',
  data: { realmId: 1, userId: 10, flag: 'read', op: 'add', selection: { kind: 'ids', messageIds: [1, 2] }, updatedCount: 2, at: AT, ...data },
});

describe('messageFlagsDecider', () => {
  it('records the change with the resolved ids', () =>
    given([]).when(change()).then([
      { type: 'MessageFlagsChanged', data: { realmId: 1, userId: 10, flag: 'read', op: 'add', selection: { kind: 'ids', messageIds: [1, 2] }, at: AT } },
    ]));

  it('records a channel or topic selection bounded by a message id, and "everything"', () => {
    const channel: FlagSelection = { kind: 'channel', streamId: 5, topic: 'greetings', upToMessageId: 900 };
    given([]).when(change({ selection: channel, updatedCount: 50_000 })).thenMatches([{ data: { selection: channel } }]);
    given([]).when(change({ selection: { kind: 'all', upToMessageId: 900 } })).thenMatches([{ data: { selection: { kind: 'all', upToMessageId: 900 } } }]);
  });

  it('records the ids a channel selection changes (the event names them), and only for a channel selection', () => {
    const channel: FlagSelection = { kind: 'channel', streamId: 5, topic: null, upToMessageId: 900 };
    given([]).when(change({ selection: channel, updatedCount: 2, changedIds: [7, 9] })).then([
      { type: 'MessageFlagsChanged', data: { realmId: 1, userId: 10, flag: 'read', op: 'add', selection: channel, changedIds: [7, 9], at: AT } },
    ]);
    given([]).when(change({ changedIds: [1] })).then([
      { type: 'MessageFlagsChanged', data: { realmId: 1, userId: 10, flag: 'read', op: 'add', selection: { kind: 'ids', messageIds: [1, 2] }, at: AT } },
    ]);
  });

  it('records nothing when nothing changes (or nothing is selected)', () => {
    given([]).when(change({ updatedCount: 0 })).thenNothingHappened();
    given([]).when(change({ selection: { kind: 'ids', messageIds: [] } })).thenNothingHappened();
  });

  it.each(['read', 'starred', 'collapsed'])('lets users add and remove %s', (flag) => {
    for (const op of ['add', 'remove']) given([]).when(change({ flag, op })).thenMatches([{ data: { flag, op } }]);
  });

  it.each(['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned', 'has_alert_word', 'historical'])(
    'refuses the computed flag %s: "Flag not editable"',
    (flag) => given([]).when(change({ flag })).thenThrows(DomainError, `Flag not editable: '${flag}'`),
  );

  it.each(['bogus', 'is_private', 'wildcard_mentioned', ''])('refuses the unknown flag %j: "Invalid flag"', (flag) =>
    given([]).when(change({ flag })).thenThrows(DomainError, `Invalid flag: '${flag}'`));

  it('checks the flag before the operation, as do_update_message_flags', () => {
    expect(() => checkFlagChange('bogus', 'toggle')).toThrow("Invalid flag: 'bogus'");
    expect(() => checkFlagChange('read', 'toggle')).toThrow("Invalid message flag operation: 'toggle'");
    expect(checkFlagChange('starred', 'remove')).toEqual({ flag: 'starred', op: 'remove', mask: MESSAGE_FLAG_BITS.starred });
  });

  it('has no state: one stream per user, never folded', () => {
    expect(messageFlagsStream(10)).toBe('message_flags-10');
    expect(messageFlagsDecider.evolve(messageFlagsDecider.initialState(), { type: 'MessageFlagsChanged' } as never)).toEqual({});
  });

  it('maps selections to the store\'s conditions', () => {
    expect(selectionConditions({ kind: 'ids', messageIds: [3] })).toEqual({ messageIds: [3] });
    expect(selectionConditions({ kind: 'channel', streamId: 5, topic: null, upToMessageId: 9 })).toEqual({ streamId: 5, maxId: 9 });
    expect(selectionConditions({ kind: 'channel', streamId: 5, topic: '', upToMessageId: 9 })).toEqual({ streamId: 5, topic: '', maxId: 9 });
    expect(selectionConditions({ kind: 'all', upToMessageId: 9 })).toEqual({ maxId: 9 });
  });
});
