import { MessageError, readReceiptUserIds, type ReadReceiptFacts } from '@app/domain';

const facts = (overrides: Partial<ReadReceiptFacts> = {}): ReadReceiptFacts => ({
  enabled: true, viewerId: 1, senderId: 2, readerIds: [5, 2, 3, 1, 4, 6], notSharing: new Set(), mutedByViewer: new Set(), mutingViewer: new Set(), ...overrides,
});

describe('readReceiptUserIds', () => {
  it('lists the readers, ascending, without the sender (the viewer included when they read it)', () =>
    expect(readReceiptUserIds(facts())).toEqual([1, 3, 4, 5, 6]));

  it('leaves out readers who do not share read receipts, who muted the viewer, or whom the viewer muted', () =>
    expect(readReceiptUserIds(facts({ notSharing: new Set([3]), mutingViewer: new Set([4]), mutedByViewer: new Set([5]) }))).toEqual([1, 6]));

  it('refuses when the organization disabled read receipts', () => {
    expect(() => readReceiptUserIds(facts({ enabled: false }))).toThrow(MessageError);
    expect(() => readReceiptUserIds(facts({ enabled: false }))).toThrow('Read receipts are disabled in this organization.');
  });
});
