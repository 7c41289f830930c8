import {
  GuestUsersNotAllowedError,
  STREAM_ASSIGNMENT_COLORS,
  SubscriberDataNotAvailableError,
  UnableToRetrieveSubscribersError,
  checkCanSeeSubscribers,
  checkMayAddSubscriptions,
  concernsOthers,
  isValidColor,
  pickColors,
  type ChannelAccessFacts,
} from '@app/domain';

describe('pickColors (zerver/lib/stream_color.py)', () => {
  it('gives new channels the palette in order, in channel id order', () =>
    expect(pickColors([], {}, [9, 3, 5])).toEqual({ 3: '#76ce90', 5: '#fae589', 9: '#a6c7e5' }));

  it('skips colors the user already uses', () =>
    expect(pickColors(['#76ce90', '#a6c7e5'], {}, [1, 2])).toEqual({ 1: '#fae589', 2: '#e79ab5' }));

  it('uses a requested color, and keeps it from the others', () =>
    expect(pickColors([], { 2: '#76ce90' }, [1, 2])).toEqual({ 1: '#fae589', 2: '#76ce90' }));

  it('falls back to the palette color at id mod 24 once every color is used', () => {
    const all = [...STREAM_ASSIGNMENT_COLORS];
    expect(pickColors(all, {}, [25, 48])).toEqual({ 25: STREAM_ASSIGNMENT_COLORS[1], 48: STREAM_ASSIGNMENT_COLORS[0] });
  });

  it('has Zulip\'s 24 colors', () => {
    expect(STREAM_ASSIGNMENT_COLORS).toHaveLength(24);
    expect(STREAM_ASSIGNMENT_COLORS.every(isValidColor)).toBe(true);
  });

  it('checks colors as check_color does', () => {
    expect(isValidColor('#AbCdEf')).toBe(true);
    expect(isValidColor('#abc')).toBe(false);
    expect(isValidColor('abcdef1')).toBe(false);
  });
});

describe('who may use POST /users/me/subscriptions', () => {
  it('refuses guests', () => {
    expect(() => checkMayAddSubscriptions({ userId: 12, role: 'guest' })).toThrow(new GuestUsersNotAllowedError());
    expect(() => checkMayAddSubscriptions({ userId: 12, role: 'guest' })).toThrow('Not allowed for guest users');
    expect(() => checkMayAddSubscriptions({ userId: 10, role: 'member' })).not.toThrow();
  });
});

describe('concernsOthers', () => {
  it('subscribing: anyone but oneself, one\'s bots included', () => {
    expect(concernsOthers(10, [{ userId: 10 }], { ownBotsCount: true })).toBe(false);
    expect(concernsOthers(10, [{ userId: 10 }, { userId: 30, botOwnerId: 10 }], { ownBotsCount: true })).toBe(true);
  });

  it('unsubscribing: oneself and one\'s own bots do not count (user_directly_controls_user)', () => {
    expect(concernsOthers(10, [{ userId: 10 }, { userId: 30, botOwnerId: 10 }], { ownBotsCount: false })).toBe(false);
    expect(concernsOthers(10, [{ userId: 31, botOwnerId: 2 }], { ownBotsCount: false })).toBe(true);
    expect(concernsOthers(10, [{ userId: 11, botOwnerId: null }], { ownBotsCount: false })).toBe(true);
  });
});

describe('checkCanSeeSubscribers', () => {
  const publicChannel: ChannelAccessFacts = { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false, creatorId: 1, isArchived: false };
  it('words the two refusals as Zulip does', () => {
    expect(() => checkCanSeeSubscribers({ userId: 12, role: 'guest' }, publicChannel, false)).toThrow(new SubscriberDataNotAvailableError());
    expect(() => checkCanSeeSubscribers({ userId: 11, role: 'member' }, { ...publicChannel, inviteOnly: true }, false)).toThrow(
      new UnableToRetrieveSubscribersError(),
    );
    expect(() => checkCanSeeSubscribers({ userId: 11, role: 'member' }, publicChannel, false)).not.toThrow();
  });
});
