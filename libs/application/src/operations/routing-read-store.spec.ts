import type { GlobalPosition } from '../ports/event-store.port';
import type { ReadStoreBatch, ReadStorePort } from '../ports/read-store.port';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { RoutingReadStore, SwitchableUserMessageStore } from './routing-read-store';

/** Just enough of a read store to see where calls go. */
function fakeStore(label: string) {
  const docs = new Map<string, Map<string, object>>();
  const checkpoints: Record<string, GlobalPosition> = {};
  const commits: ReadStoreBatch[] = [];
  const store = {
    label,
    commits,
    async commit(batch: ReadStoreBatch) {
      commits.push(batch);
      for (const w of batch.writes) {
        let c = docs.get(w.collection);
        if (!c) docs.set(w.collection, (c = new Map()));
        for (const op of w.ops) if (op.type === 'put') c.set(op.id, op.doc as object);
      }
      for (const cp of batch.checkpoints) checkpoints[cp.name] = cp.position;
    },
    async get(collection: string, id: string) {
      return docs.get(collection)?.get(id) ?? null;
    },
    async getCheckpoints() {
      return { ...checkpoints };
    },
    async getCheckpoint(name: string) {
      return checkpoints[name];
    },
    async dropCollection(collection: string) {
      docs.delete(collection);
    },
    async close() {},
  };
  return store as unknown as ReadStorePort & { commits: ReadStoreBatch[]; label: string };
}

describe('RoutingReadStore', () => {
  it('routes collections and checkpoints by the layout, splitting a commit by copy', async () => {
    const a = fakeStore('a');
    const b = fakeStore('b');
    const routing = new RoutingReadStore(new Map([['a', a], ['b', b]]), { default: 'a', collections: { users: 'b' }, checkpoints: { users: 'b' } });
    await routing.commit({
      writes: [
        { collection: 'users', ops: [{ type: 'put', id: '1', doc: { u: 1 }, position: 5n }] },
        { collection: 'channels', ops: [{ type: 'put', id: '2', doc: { c: 2 }, position: 5n }] },
      ],
      checkpoints: [{ name: 'users', position: 5n }, { name: 'channels', position: 5n }],
    });
    expect(a.commits).toEqual([{ writes: [expect.objectContaining({ collection: 'channels' })], checkpoints: [{ name: 'channels', position: 5n }] }]);
    expect(b.commits).toEqual([{ writes: [expect.objectContaining({ collection: 'users' })], checkpoints: [{ name: 'users', position: 5n }] }]);
    expect(await routing.get('users', '1')).toEqual({ u: 1 });
    expect(await routing.get('channels', '2')).toEqual({ c: 2 });
    // Each checkpoint from the copy that holds it (a stale one elsewhere is ignored).
    await a.commit({ writes: [], checkpoints: [{ name: 'users', position: 1n }] });
    expect(await routing.getCheckpoints()).toEqual({ users: 5n, channels: 5n });
  });

  it('switches at once and reports the copies no longer used', async () => {
    const a = fakeStore('a');
    const routing = new RoutingReadStore(new Map([['a', a]]), { default: 'a', collections: {}, checkpoints: {} });
    const c = fakeStore('c');
    expect(() => routing.switchTo({ default: 'c', collections: {}, checkpoints: {} })).toThrow('read-model copy c is not open');
    routing.addCopy({ label: 'c', readStore: c, userMessageStore: {} as UserMessageStorePort });
    expect(routing.switchTo({ default: 'c', collections: {}, checkpoints: {} })).toEqual(['a']);
    await routing.commit({ writes: [], checkpoints: [{ name: 'x', position: 1n }] });
    expect(c.commits).toHaveLength(1);
    expect(a.commits).toHaveLength(0);
    expect(routing.currentLayout()).toEqual({ default: 'c', collections: {}, checkpoints: {} });
  });

  it('switches the per-user message store behind one stable object', async () => {
    const first = { unreadCounts: async () => 'first' } as unknown as UserMessageStorePort;
    const second = { unreadCounts: async () => 'second' } as unknown as UserMessageStorePort;
    const switchable = new SwitchableUserMessageStore(first);
    const port = switchable.port;
    expect(await port.unreadCounts(1)).toBe('first');
    expect(switchable.switchTo(second)).toBe(first);
    expect(await port.unreadCounts(1)).toBe('second');
  });
});
