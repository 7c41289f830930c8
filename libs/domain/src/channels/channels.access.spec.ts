import {
  CannotAdministerChannelError,
  InvalidChannelIdError,
  administersChannel,
  canAddSubscribersTo,
  canRemoveSubscribersFrom,
  checkCanAdministerChannel,
  hasContentAccess,
  hasMetadataAccess,
  subscriberVisibility,
  type ChannelAccessFacts,
  type Viewer,
} from '@app/domain';

const publicChannel: ChannelAccessFacts = { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false, creatorId: 10, isArchived: false };
const privateChannel: ChannelAccessFacts = { ...publicChannel, inviteOnly: true, historyPublicToSubscribers: false };
const webPublicChannel: ChannelAccessFacts = { ...publicChannel, isWebPublic: true };

const admin: Viewer = { userId: 2, role: 'administrator' };
const owner: Viewer = { userId: 1, role: 'owner' };
const creator: Viewer = { userId: 10, role: 'member' };
const member: Viewer = { userId: 11, role: 'member' };
const moderator: Viewer = { userId: 3, role: 'moderator' };
const guest: Viewer = { userId: 12, role: 'guest' };
const operator: Viewer = { userId: null, role: 'operator' };

describe('content access (user_has_content_access)', () => {
  it('public channels: everyone but guests; guests once subscribed', () => {
    expect(hasContentAccess(member, publicChannel, false)).toBe(true);
    expect(hasContentAccess(moderator, publicChannel, false)).toBe(true);
    expect(hasContentAccess(guest, publicChannel, false)).toBe(false);
    expect(hasContentAccess(guest, publicChannel, true)).toBe(true);
  });

  it('private channels: subscribers only, administrators included', () => {
    expect(hasContentAccess(member, privateChannel, true)).toBe(true);
    expect(hasContentAccess(member, privateChannel, false)).toBe(false);
    expect(hasContentAccess(admin, privateChannel, false)).toBe(false);
    expect(hasContentAccess(creator, privateChannel, false)).toBe(false);
  });

  it('web-public channels: everyone, guests included', () => expect(hasContentAccess(guest, webPublicChannel, false)).toBe(true));
  it('the operator reaches everything', () => expect(hasContentAccess(operator, privateChannel, false)).toBe(true));
});

describe('metadata access (user_has_metadata_access)', () => {
  it('adds administrators and the channel\'s creator to those with content access', () => {
    expect(hasMetadataAccess(admin, privateChannel, false)).toBe(true);
    expect(hasMetadataAccess(owner, privateChannel, false)).toBe(true);
    expect(hasMetadataAccess(creator, privateChannel, false)).toBe(true);
    expect(hasMetadataAccess(member, privateChannel, false)).toBe(false);
    expect(hasMetadataAccess(moderator, privateChannel, false)).toBe(false);
  });

  it('a guest sees only what they may read, even a channel they created before being demoted', () => {
    expect(hasMetadataAccess({ userId: 10, role: 'guest' }, privateChannel, false)).toBe(false);
    expect(hasMetadataAccess(guest, publicChannel, false)).toBe(false);
  });
});

describe('administering a channel', () => {
  it('is for organization administrators and the channel\'s creator', () => {
    expect(administersChannel(admin, privateChannel)).toBe(true);
    expect(administersChannel(creator, publicChannel)).toBe(true);
    expect(administersChannel(member, publicChannel)).toBe(false);
    expect(administersChannel(moderator, publicChannel)).toBe(false);
    expect(administersChannel({ userId: 10, role: 'guest' }, publicChannel)).toBe(false);
  });

  it('tells those who can see the channel that they may not administer it, and others that it does not exist', () => {
    expect(() => checkCanAdministerChannel(member, publicChannel, false)).toThrow(new CannotAdministerChannelError());
    expect(() => checkCanAdministerChannel(member, privateChannel, true)).toThrow('You do not have permission to administer this channel.');
    expect(() => checkCanAdministerChannel(member, privateChannel, false)).toThrow(new InvalidChannelIdError());
    expect(() => checkCanAdministerChannel(guest, publicChannel, false)).toThrow('Invalid channel ID');
    expect(() => checkCanAdministerChannel(admin, privateChannel, false)).not.toThrow();
  });
});

describe('adding and removing subscribers', () => {
  it('members may add others to channels they can access; guests may not', () => {
    expect(canAddSubscribersTo(member, publicChannel)).toBe(true);
    expect(canAddSubscribersTo(guest, publicChannel)).toBe(false);
  });

  it('removing others is for administrators and the channels\' creator', () => {
    expect(canRemoveSubscribersFrom(admin, [{ channel: privateChannel, isSubscribed: false }])).toBe(true);
    expect(canRemoveSubscribersFrom(creator, [{ channel: publicChannel, isSubscribed: true }])).toBe(true);
    expect(canRemoveSubscribersFrom(member, [{ channel: publicChannel, isSubscribed: true }])).toBe(false);
    expect(canRemoveSubscribersFrom(guest, [{ channel: publicChannel, isSubscribed: true }])).toBe(false);
    expect(canRemoveSubscribersFrom(creator, [
      { channel: publicChannel, isSubscribed: true },
      { channel: { ...publicChannel, creatorId: 99 }, isSubscribed: true },
    ])).toBe(false);
  });
});

describe('seeing subscribers (validate_user_access_to_subscribers_helper)', () => {
  it.each([
    ['a member, public channel', member, publicChannel, false, 'visible'],
    ['a guest subscribed to a public channel', guest, publicChannel, true, 'visible'],
    ['a guest not subscribed to a public channel', guest, publicChannel, false, 'not_available'],
    ['a guest not subscribed to a private channel', guest, privateChannel, false, 'private'],
    ['an administrator, private channel', admin, privateChannel, false, 'visible'],
    ['a member outside a private channel', member, privateChannel, false, 'private'],
    ['a subscriber of a private channel', member, privateChannel, true, 'visible'],
    ['anyone, web-public channel', guest, webPublicChannel, false, 'visible'],
  ] as const)('%s: %s', (_label, viewer, channel, subscribed, expected) =>
    expect(subscriberVisibility(viewer, channel, subscribed)).toBe(expected));
});
