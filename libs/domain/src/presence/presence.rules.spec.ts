import {
  PRESENCE_OFFLINE_THRESHOLD_SECONDS,
  decidePresencePing,
  legacyEventPresence,
  hiddenPresence,
  legacyPresence,
  modernPresence,
  parsePresenceStatus,
} from '@app/domain';

/** ≈ zerver/tests/test_presence.py: what one ping writes and when others are told at once. */
describe('presence rules', () => {
  const T = 1_700_000_000;

  it('accepts active and idle only', () => {
    expect(parsePresenceStatus('active')).toBe('active');
    expect(parsePresenceStatus('idle')).toBe('idle');
    expect(parsePresenceStatus('away')).toBeNull();
    expect(parsePresenceStatus('')).toBeNull();
  });

  it('creates the row on the first ping and tells others, active or idle', () => {
    expect(decidePresencePing(null, 'active', T)).toEqual({ write: { lastActiveTime: T, lastConnectedTime: T }, notify: true });
    expect(decidePresencePing(null, 'idle', T)).toEqual({ write: { lastActiveTime: null, lastConnectedTime: T }, notify: true });
  });

  it('writes nothing for pings closer than 55 seconds (several windows open)', () => {
    const previous = { lastActiveTime: T, lastConnectedTime: T };
    expect(decidePresencePing(previous, 'active', T + 30)).toEqual({ write: null, notify: false });
    expect(decidePresencePing(previous, 'idle', T + 55)).toEqual({ write: null, notify: false });
  });

  it('moves the connected time on an idle ping, both times on an active one', () => {
    const previous = { lastActiveTime: T, lastConnectedTime: T };
    expect(decidePresencePing(previous, 'idle', T + 60)).toEqual({ write: { lastActiveTime: T, lastConnectedTime: T + 60 }, notify: false });
    expect(decidePresencePing(previous, 'active', T + 60)).toEqual({ write: { lastActiveTime: T + 60, lastConnectedTime: T + 60 }, notify: false });
  });

  it('tells others when an active ping follows more than 70 seconds without activity', () => {
    const previous = { lastActiveTime: T, lastConnectedTime: T + 60 };
    expect(decidePresencePing(previous, 'active', T + 70).notify).toBe(false);
    expect(decidePresencePing(previous, 'active', T + PRESENCE_OFFLINE_THRESHOLD_SECONDS - 60 - 9).notify).toBe(true);
    expect(decidePresencePing(previous, 'idle', T + 3600).notify).toBe(false);
    expect(decidePresencePing({ lastActiveTime: null, lastConnectedTime: T }, 'active', T + 60).notify).toBe(true);
  });

  it('formats the modern shape, a never-active user as active when they joined', () => {
    expect(modernPresence({ lastActiveTime: T + 0.7, lastConnectedTime: T + 60.2 }, T - 100)).toEqual({ active_timestamp: T, idle_timestamp: T + 60 });
    expect(modernPresence({ lastActiveTime: null, lastConnectedTime: T }, T - 100)).toEqual({ active_timestamp: T - 100, idle_timestamp: T });
  });

  it('formats the legacy shape as Zulip does: active at the last activity when it was within 70 seconds of the last connection', () => {
    expect(legacyPresence({ lastActiveTime: T, lastConnectedTime: T + 70 }, T - 100)).toEqual({
      website: { client: 'website', status: 'active', timestamp: T, pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: T },
    });
    expect(legacyPresence({ lastActiveTime: T, lastConnectedTime: T + 300 }, T - 100)).toEqual({
      website: { client: 'website', status: 'idle', timestamp: T + 300, pushable: false },
      aggregated: { client: 'website', status: 'idle', timestamp: T + 300 },
    });
    // Never active: the join time stands in for the activity.
    expect(legacyPresence({ lastActiveTime: null, lastConnectedTime: T }, T - 10).aggregated).toEqual({ client: 'website', status: 'active', timestamp: T - 10 });
  });

  it('shows a hidden user as never active and connected longer ago than the offline threshold plus two minutes', () => {
    expect(hiddenPresence({ lastActiveTime: T + 50, lastConnectedTime: T + 60 })).toEqual({ lastActiveTime: null, lastConnectedTime: T + 60 - 260 });
    expect(modernPresence(hiddenPresence({ lastActiveTime: T, lastConnectedTime: T }), T - 86_400)).toEqual({ active_timestamp: T - 86_400, idle_timestamp: T - 260 });
  });

  it('formats a live event as active when the activity is within 70 seconds of the connection', () => {
    expect(legacyEventPresence({ lastActiveTime: T, lastConnectedTime: T + 70 }, T)).toEqual({ client: 'website', status: 'active', timestamp: T, pushable: false });
    expect(legacyEventPresence({ lastActiveTime: T, lastConnectedTime: T + 71 }, T)).toEqual({ client: 'website', status: 'idle', timestamp: T + 71, pushable: false });
  });
});
