import { BadEventQueueIdError, EventQueues, queueTimeoutSecs } from './event-queues';

describe('EventQueues', () => {
  let now = 0;
  let queues: EventQueues;
  beforeEach(() => {
    now = 1_000_000;
    queues = new EventQueues({ now: () => now, heartbeatMs: 20, instanceId: 'test' });
  });
  afterEach(() => queues.stop());

  const open = (userId = 1, eventTypes: string[] | null = null, queueLifespanSecs?: number) => {
    const queue = queues.create({ userId, realmId: 1, eventTypes, queueLifespanSecs });
    queue.open(0n);
    return queue;
  };

  it('numbers events from 0 and prunes what is acknowledged', async () => {
    const queue = open();
    queues.deliver([1], { type: 'a' }, 1n);
    queues.deliver([1], { type: 'b' }, 2n);
    expect(await queues.fetch(queue, -1, true)).toEqual([{ type: 'a', id: 0 }, { type: 'b', id: 1 }]);
    expect(await queues.fetch(queue, 0, true)).toEqual([{ type: 'b', id: 1 }]);
    expect(queue.size).toBe(1);
    await expect(queues.fetch(queue, -1, true)).rejects.toThrow('An event newer than -1 has already been pruned!');
    await expect(queues.fetch(queue, 7, true)).rejects.toThrow('Event 7 was not in this queue');
  });

  it('buffers while registering and keeps only events after the state\'s position', async () => {
    const queue = queues.create({ userId: 1, realmId: 1, eventTypes: null });
    queues.deliver([1], { type: 'old' }, 5n);
    queues.deliver([1], { type: 'new' }, 6n);
    queues.deliver([1], { type: 'typing' });
    queue.open(5n);
    queues.deliver([1], { type: 'late duplicate' }, 4n);
    queues.deliver([1], { type: 'later' }, 7n);
    expect((await queues.fetch(queue, -1, true)).map((e) => e.type)).toEqual(['new', 'typing', 'later']);
  });

  it('delivers only wanted types, to the given users\' queues', async () => {
    const mine = open(1, ['drafts']);
    const theirs = open(2);
    queues.deliver([1], { type: 'drafts' }, 1n);
    queues.deliver([1], { type: 'muted_users' }, 2n);
    expect((await queues.fetch(mine, -1, true)).map((e) => e.type)).toEqual(['drafts']);
    expect(await queues.fetch(theirs, -1, true)).toEqual([]);
  });

  it('gives each queue the presence event shape its client asked for', async () => {
    const legacy = open(1);
    const slim = queues.create({ userId: 1, realmId: 1, eventTypes: null, capabilities: { slimPresence: true } });
    const modern = queues.create({ userId: 1, realmId: 1, eventTypes: null, capabilities: { simplifiedPresenceEvents: true, slimPresence: true } });
    slim.open(0n);
    modern.open(0n);
    const presence = { website: { client: 'website', status: 'active', timestamp: 5, pushable: false } };
    queues.deliver([1], { type: 'presence', user_id: 7, email: 'u@x', server_timestamp: 5, presence, presences: { '7': { active_timestamp: 5, idle_timestamp: 5 } } });
    expect(await queues.fetch(legacy, -1, true)).toEqual([{ id: 0, type: 'presence', user_id: 7, email: 'u@x', server_timestamp: 5, presence }]);
    expect(await queues.fetch(slim, -1, true)).toEqual([{ id: 0, type: 'presence', user_id: 7, server_timestamp: 5, presence }]);
    expect(await queues.fetch(modern, -1, true)).toEqual([{ id: 0, type: 'presence', presences: { '7': { active_timestamp: 5, idle_timestamp: 5 } } }]);
  });

  it('wakes a waiting poll with the new event', async () => {
    const queue = open();
    const poll = queues.fetch(queue, -1, false);
    queues.deliver([1], { type: 'x' }, 1n);
    expect(await poll).toEqual([{ type: 'x', id: 0 }]);
  });

  it('answers an idle poll with a heartbeat', async () => {
    const queue = open(1, ['message']);
    expect(await queues.fetch(queue, -1, false)).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('answers a replaced or cancelled poll with nothing', async () => {
    const queue = open();
    const first = queues.fetch(queue, -1, false);
    const second = queues.fetch(queue, -1, false, (cancel) => setImmediate(cancel));
    expect(await first).toEqual([]);
    expect(await second).toEqual([]);
  });

  it('refuses unknown queues and other users\' queues alike', () => {
    const queue = open(1);
    expect(() => queues.ownedBy('nope', 1)).toThrow(BadEventQueueIdError);
    expect(() => queues.ownedBy(queue.id, 2)).toThrow('Bad event queue ID: ' + queue.id);
    expect(queues.ownedBy(queue.id, 1)).toBe(queue);
  });

  it('collects queues idle longer than their lifespan (10 minutes by default, at most 7 days)', async () => {
    const short = open(1);
    const long = open(1, null, 3600);
    const huge = open(1, null, 30 * 24 * 3600);
    expect(huge.lifespanMs).toBe(7 * 24 * 3600 * 1000);
    now += 10 * 60 * 1000 + 1;
    expect(queues.collectIdle()).toEqual([short.id]);
    expect(queues.get(short.id)).toBeUndefined();
    await queues.fetch(long, -1, true);
    now += 3600 * 1000;
    expect(queues.collectIdle()).toEqual([]);
    now += 1;
    expect(queues.collectIdle()).toEqual([long.id]);
  });

  it('reads idle_queue_timeout: "mobile" is 12 hours, seconds are capped at 7 days, and it wins over queue_lifespan_secs', () => {
    expect(queueTimeoutSecs(undefined)).toBe(600);
    expect(queueTimeoutSecs('mobile')).toBe(12 * 3600);
    expect(queueTimeoutSecs(30)).toBe(30);
    expect(queueTimeoutSecs(3600)).toBe(3600);
    expect(queueTimeoutSecs(7 * 24 * 3600 + 1)).toBe(7 * 24 * 3600);
    expect(queueTimeoutSecs(60, 3600)).toBe(60);
    expect(queueTimeoutSecs('mobile', 60)).toBe(12 * 3600);
    expect(queueTimeoutSecs(undefined, 60)).toBe(600);
    expect(queueTimeoutSecs(undefined, 0)).toBe(600);
  });

  it('collects a queue after its own idle_queue_timeout, shorter or longer than the default', () => {
    const quick = queues.create({ userId: 1, realmId: 1, eventTypes: null, idleQueueTimeout: 30 });
    const mobile = queues.create({ userId: 1, realmId: 1, eventTypes: null, idleQueueTimeout: 'mobile' });
    const plain = queues.create({ userId: 1, realmId: 1, eventTypes: null });
    expect(queues.collectIdle(now + 30_000)).toEqual([]);
    expect(queues.collectIdle(now + 30_001)).toEqual([quick.id]);
    expect(queues.collectIdle(now + 600_001)).toEqual([plain.id]);
    expect(queues.collectIdle(now + 12 * 3600_000)).toEqual([]);
    expect(queues.collectIdle(now + 12 * 3600_000 + 1)).toEqual([mobile.id]);
    expect(queues.size).toBe(0);
  });

  it('never collects a queue with a poll waiting', () => {
    const queue = open();
    void queues.fetch(queue, -1, false);
    now += 24 * 3600 * 1000;
    expect(queues.collectIdle()).toEqual([]);
    queues.delete(queue.id);
  });
});
