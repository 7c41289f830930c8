import { checkFlagChange, clampFlagRange, type FlagChangeOverIds, MESSAGE_FLAG_BITS as F, planFlagChangeOverIds } from '@app/domain';

const plan = (flag: string, op: string, o: Partial<Omit<FlagChangeOverIds, 'flag' | 'op' | 'mask'>> = {}) => {
  const ids = o.ids ?? [1, 2, 3];
  return planFlagChangeOverIds({
    ...checkFlagChange(flag, op),
    ids,
    requested: o.requested ?? ids,
    rows: o.rows ?? new Map(),
    unsubscribedChannelOf: o.unsubscribedChannelOf ?? new Map(),
  });
};

describe('clampFlagRange (update_message_flags_for_narrow)', () => {
  it.each([
    [[100, 200], [100, 200]],
    [[5000, 0], [5000, 0]],
    [[100_000, 0], [5000, 0]],
    [[0, 100_000], [0, 5000]],
    [[5000, 5000], [1000, 4000]],
    [[100_000, 100_000], [1000, 4000]],
    [[4000, 4000], [1000, 4000]],
    [[500, 100_000], [500, 4500]],
    [[3000, 3000], [2000, 3000]],
  ])('%j becomes %j', ([before, after], [numBefore, numAfter]) => {
    expect(clampFlagRange(before, after)).toEqual({ numBefore, numAfter });
    expect(numBefore + numAfter).toBeLessThanOrEqual(5000);
  });
});

describe('planFlagChangeOverIds (do_update_message_flags)', () => {
  it('selects only the messages whose flag changes', () => {
    const rows = new Map([[1, 0], [2, F.read], [3, F.read | F.starred]]);
    expect(plan('read', 'add', { rows })).toMatchObject({ changing: [1], selection: { kind: 'ids', messageIds: [1] }, historicalIds: [] });
    expect(plan('starred', 'remove', { rows })).toMatchObject({ changing: [3], selection: { kind: 'ids', messageIds: [3] } });
    expect(plan('starred', 'add', { rows }).changing).toEqual([1, 2]);
  });

  it('counts a message without a row as read | historical: marking it read or unstarring it changes nothing', () => {
    const rows = new Map([[1, 0]]);
    expect(plan('read', 'add', { rows })).toEqual({ selection: { kind: 'ids', messageIds: [1] }, changing: [1], historicalIds: [], processed: [1, 2, 3], ignoredChannels: [] });
    expect(plan('starred', 'remove', { rows }).changing).toEqual([]);
    expect(plan('collapsed', 'remove', { rows }).historicalIds).toEqual([]);
  });

  it('names the messages without a row that a change alters as historical (starring, collapsing, marking unread)', () => {
    const rows = new Map([[1, F.read]]);
    expect(plan('starred', 'add', { rows })).toMatchObject({ changing: [1, 2, 3], historicalIds: [2, 3], selection: { kind: 'ids', messageIds: [1, 2, 3], historicalIds: [2, 3] } });
    expect(plan('collapsed', 'add', { rows }).historicalIds).toEqual([2, 3]);
    expect(plan('read', 'remove', { rows }).historicalIds).toEqual([2, 3]);
  });

  it('skips, for read + remove only, messages of channels the user is not subscribed to and reports those channels once, ascending', () => {
    const rows = new Map([[1, F.read], [2, F.read], [3, F.read], [4, F.read]]);
    const unsubscribedChannelOf = new Map([[2, 9], [3, 7], [4, 9]]);
    expect(plan('read', 'remove', { ids: [1, 2, 3, 4], requested: [4, 1, 2, 3, 1], rows, unsubscribedChannelOf })).toEqual({
      selection: { kind: 'ids', messageIds: [1] },
      changing: [1],
      historicalIds: [],
      processed: [1, 1],
      ignoredChannels: [7, 9],
    });
    expect(plan('starred', 'add', { ids: [1, 2, 3, 4], rows, unsubscribedChannelOf })).toMatchObject({ changing: [1, 2, 3, 4], processed: [1, 2, 3, 4], ignoredChannels: [] });
    expect(plan('read', 'add', { ids: [1, 2], rows: new Map([[1, 0], [2, 0]]), unsubscribedChannelOf }).changing).toEqual([1, 2]);
  });

  it('echoes the requested ids (duplicates and order included) when nothing is skipped', () => {
    expect(plan('read', 'add', { ids: [1, 2], requested: [2, 1, 2] }).processed).toEqual([2, 1, 2]);
  });

  it('is empty for no ids', () => {
    expect(plan('read', 'remove', { ids: [] })).toEqual({ selection: { kind: 'ids', messageIds: [] }, changing: [], historicalIds: [], processed: [], ignoredChannels: [] });
  });
});
