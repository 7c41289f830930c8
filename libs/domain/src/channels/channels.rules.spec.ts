import {
  ChannelDescriptionTooLongError,
  InsufficientPermissionError,
  InvalidChannelNameError,
  InvalidChannelParametersError,
  WebPublicChannelsDisabledError,
  channelNameKey,
  checkChannelCreationPermission,
  checkChannelName,
  defaultHistoryPublicToSubscribers,
  normalizeChannelDescription,
  normalizeChannelName,
  proposeChannelPrivacy,
  pythonStrip,
  unprintablePosition,
} from '@app/domain';

const PUBLIC = { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false };
const PRIVATE_PROTECTED = { inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false };
const PRIVATE_SHARED = { inviteOnly: true, historyPublicToSubscribers: true, isWebPublic: false };

describe('channel names (check_stream_name)', () => {
  it('accepts a name of 60 code points, emoji counted once each', () => {
    expect(checkChannelName('a'.repeat(60))).toBe('a'.repeat(60));
    expect(checkChannelName('🎉'.repeat(60))).toBe('🎉'.repeat(60));
  });

  it.each([[''], ['   '], ['\u3000']])('refuses an empty or blank name %j', (name) =>
    expect(() => checkChannelName(name)).toThrow(new InvalidChannelNameError("Channel name can't be empty.")));

  it('refuses a name longer than 60 characters', () =>
    expect(() => checkChannelName('a'.repeat(61))).toThrow(new InvalidChannelNameError('Channel name too long (limit: 60 characters).')));

  it.each([
    ['a\u0000b', 2],
    ['\u0007bell', 1],
    ['ok\ud800', 3],
    ['x\ufffe', 2],
    ['x\ufdd0', 2],
    ['x\u{1ffff}', 2],
  ])('names the position of an unprintable character in %j', (name, position) =>
    expect(() => checkChannelName(name)).toThrow(`Invalid character in channel name, at position ${position}.`));

  it('allows format characters and private-use characters, as Zulip does', () => {
    expect(unprintablePosition('a\u200db\ue000')).toBeNull();
  });

  it('strips surrounding whitespace the way Python does, and compares case-insensitively', () => {
    expect(normalizeChannelName('  design\t')).toBe('design');
    expect(pythonStrip('\x1cdesign\x85')).toBe('design');
    expect(pythonStrip('\ufeffdesign')).toBe('\ufeffdesign');
    expect(channelNameKey(' Design ')).toBe(channelNameKey('design'));
  });
});

describe('channel descriptions', () => {
  it('are one line: newlines become spaces', () => expect(normalizeChannelDescription('a\nb\n')).toBe('a b '));
  it('hold at most 1024 characters', () => {
    expect(normalizeChannelDescription('x'.repeat(1024))).toHaveLength(1024);
    expect(() => normalizeChannelDescription('x'.repeat(1025))).toThrow(new ChannelDescriptionTooLongError(1024));
    expect(() => normalizeChannelDescription('x'.repeat(1025))).toThrow('description is too long (limit: 1024 characters)');
  });
});

describe('channel privacy', () => {
  it('defaults history to protected for private channels and public for public ones', () => {
    expect(defaultHistoryPublicToSubscribers(true, null)).toBe(false);
    expect(defaultHistoryPublicToSubscribers(true, true)).toBe(true);
    expect(defaultHistoryPublicToSubscribers(false, false)).toBe(true);
    expect(defaultHistoryPublicToSubscribers(false, null)).toBe(true);
  });

  it('making a channel private protects its history unless told otherwise', () => {
    expect(proposeChannelPrivacy(PUBLIC, { isPrivate: true })).toEqual(PRIVATE_PROTECTED);
    expect(proposeChannelPrivacy(PUBLIC, { isPrivate: true, historyPublicToSubscribers: true })).toEqual(PRIVATE_SHARED);
  });

  it('making a channel public opens its history', () =>
    expect(proposeChannelPrivacy(PRIVATE_PROTECTED, { isPrivate: false })).toEqual(PUBLIC));

  it('changing only the history of a private channel keeps it private', () =>
    expect(proposeChannelPrivacy(PRIVATE_PROTECTED, { historyPublicToSubscribers: true })).toEqual(PRIVATE_SHARED));

  it('keeps the current settings when nothing is asked', () => expect(proposeChannelPrivacy(PRIVATE_SHARED, {})).toEqual(PRIVATE_SHARED));

  it.each([
    ['a public channel with protected history', PUBLIC, { historyPublicToSubscribers: false }],
    ['a public channel made public with protected history', PRIVATE_PROTECTED, { isPrivate: false, historyPublicToSubscribers: false }],
    ['a web-public private channel', PRIVATE_SHARED, { isWebPublic: true }],
    ['a web-public channel with protected history', PUBLIC, { isWebPublic: true, historyPublicToSubscribers: false }],
  ])('refuses %s with "Invalid parameters"', (_label, current, change) =>
    expect(() => proposeChannelPrivacy(current, change)).toThrow(new InvalidChannelParametersError()));
});

describe('creating channels (check_channel_creation_permissions)', () => {
  it.each(['owner', 'administrator', 'moderator', 'member', 'operator'] as const)('a %s may create public and private channels', (role) => {
    expect(() => checkChannelCreationPermission(role, false, false)).not.toThrow();
    expect(() => checkChannelCreationPermission(role, true, false)).not.toThrow();
  });

  it('a guest may create neither', () => {
    expect(() => checkChannelCreationPermission('guest', false, false)).toThrow(new InsufficientPermissionError());
    expect(() => checkChannelCreationPermission('guest', true, false)).toThrow('Insufficient permission');
  });

  it('nobody creates web-public channels: spectator access is off', () =>
    expect(() => checkChannelCreationPermission('owner', false, true)).toThrow(new WebPublicChannelsDisabledError()));
});
