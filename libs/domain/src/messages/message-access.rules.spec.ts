import { actionAudience, canAccessChannelHistory, type MessageChannelFacts, hasMessageAccess, type MessageAccessFacts, mayReadLinkedFile } from '@app/domain';

const member = { role: 'member' };
const guest = { role: 'guest' };
const publicChannel: MessageChannelFacts = { inviteOnly: false, historyPublicToSubscribers: true };
const privateShared: MessageChannelFacts = { inviteOnly: true, historyPublicToSubscribers: true };
const privateProtected: MessageChannelFacts = { inviteOnly: true, historyPublicToSubscribers: false };
const inChannel = (channel: MessageChannelFacts | null, subscribed: boolean, hasRow = false): MessageAccessFacts => ({ type: 'stream', channel, subscribed, hasRow });

describe('hasMessageAccess (has_message_access)', () => {
  describe('given a direct message', () => {
    it('when the reader has a row, then they may read it', () => expect(hasMessageAccess(guest, { type: 'private', hasRow: true })).toBe(true));
    it('when the reader has no row, then they may not', () => expect(hasMessageAccess(member, { type: 'private', hasRow: false })).toBe(false));
  });

  describe('given a public channel', () => {
    it('when the reader is a non-guest, then they may read it unsubscribed', () => expect(hasMessageAccess(member, inChannel(publicChannel, false))).toBe(true));
    it('when the reader is a guest without a subscription, then they may not, even with a row', () =>
      expect(hasMessageAccess(guest, inChannel(publicChannel, false, true))).toBe(false));
    it('when the reader is a subscribed guest, then they may', () => expect(hasMessageAccess(guest, inChannel(publicChannel, true))).toBe(true));
  });

  describe('given a private channel with shared history', () => {
    it('when the reader is subscribed, then they may read messages sent before they joined', () =>
      expect(hasMessageAccess(member, inChannel(privateShared, true))).toBe(true));
    it('when the reader is not subscribed, then they may not, even with a row', () =>
      expect(hasMessageAccess(member, inChannel(privateShared, false, true))).toBe(false));
  });

  describe('given a private channel with protected history', () => {
    it('when the reader is subscribed and received it, then they may', () => expect(hasMessageAccess(member, inChannel(privateProtected, true, true))).toBe(true));
    it('when the reader is subscribed but did not receive it, then they may not', () =>
      expect(hasMessageAccess(member, inChannel(privateProtected, true, false))).toBe(false));
    it('when the reader received it but left, then they may not', () => expect(hasMessageAccess(member, inChannel(privateProtected, false, true))).toBe(false));
  });

  it('given a channel that is gone, then nobody may read its message', () => expect(hasMessageAccess(member, inChannel(null, true, true))).toBe(false));
});

describe('canAccessChannelHistory (can_access_stream_history)', () => {
  it('given a web-public channel, then everyone may, guests included', () =>
    expect(canAccessChannelHistory(guest, { ...publicChannel, isWebPublic: true }, false)).toBe(true));
  it('given a public channel, then non-guests may, guests only when subscribed', () => {
    expect(canAccessChannelHistory(member, publicChannel, false)).toBe(true);
    expect(canAccessChannelHistory(guest, publicChannel, false)).toBe(false);
    expect(canAccessChannelHistory(guest, publicChannel, true)).toBe(true);
  });
  it('given a private channel, then subscribers may when the history is shared and the channel not archived', () => {
    expect(canAccessChannelHistory(member, privateShared, true)).toBe(true);
    expect(canAccessChannelHistory(member, privateShared, false)).toBe(false);
    expect(canAccessChannelHistory(member, { ...privateShared, isArchived: true }, true)).toBe(false);
    expect(canAccessChannelHistory(member, privateProtected, true)).toBe(false);
  });
});

describe('mayReadLinkedFile (validate_attachment_request)', () => {
  const reader = { userId: 11, role: 'member' };
  it('given the owner, then always', () => expect(mayReadLinkedFile({ userId: 10, role: 'guest' }, 10, [])).toBe(true));
  it('given no linking message, then nobody else', () => expect(mayReadLinkedFile(reader, 10, [])).toBe(false));
  it('given a linking message the reader received in a private channel they left, then yes (a row is enough)', () =>
    expect(mayReadLinkedFile(reader, 10, [inChannel(privateProtected, false, true)])).toBe(true));
  it('given linking messages, then any one the reader may read is enough', () => {
    expect(mayReadLinkedFile(reader, 10, [inChannel(privateShared, false), inChannel(publicChannel, false)])).toBe(true);
    expect(mayReadLinkedFile(reader, 10, [inChannel(privateShared, false), { type: 'private', hasRow: false }])).toBe(false);
  });
});

describe('actionAudience (event_recipient_ids_for_action_on_messages)', () => {
  const everyoneReads = () => true;
  it('given a direct message, then its row holders', () => expect(actionAudience({ type: 'private', rowHolderIds: [3, 1] })).toEqual([3, 1]));
  it('given a channel that is gone, then nobody', () =>
    expect(actionAudience({ type: 'stream', channel: null, subscriberIds: [1], rowHolderIds: [1], readsPublicChannels: everyoneReads })).toEqual([]));
  it('given protected history, then the subscribers holding a row', () =>
    expect(actionAudience({ type: 'stream', channel: privateProtected, subscriberIds: [1, 2, 3], rowHolderIds: [3, 1, 9], readsPublicChannels: everyoneReads })).toEqual([
      1, 3,
    ]));
  it('given a private channel with shared history, then every subscriber, rows or not', () =>
    expect(actionAudience({ type: 'stream', channel: privateShared, subscriberIds: [1, 2], rowHolderIds: [9], readsPublicChannels: everyoneReads })).toEqual([1, 2]));
  it('given a public channel, then the subscribers and the unsubscribed row holders who may read public channels', () =>
    expect(
      actionAudience({ type: 'stream', channel: publicChannel, subscriberIds: [1, 2], rowHolderIds: [2, 7, 8], readsPublicChannels: (id) => id !== 8 }),
    ).toEqual([1, 2, 7]));
});
