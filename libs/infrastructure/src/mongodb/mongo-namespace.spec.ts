import { gated, MongoNamespace, SwitchGate } from './mongo-namespace';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SwitchGate (holds a read-model copy during a MongoDB switch)', () => {
  it('waits for the operations under way, keeps new ones waiting while held, then lets them through', async () => {
    const gate = new SwitchGate();
    const log: string[] = [];
    let finishFirst!: () => void;
    const first = gate.run(() => new Promise<void>((resolve) => (finishFirst = resolve)).then(() => log.push('first done')));
    const held = gate.hold(async () => {
      log.push('held');
      await tick();
      log.push('released');
    });
    await tick();
    const second = gate.run(async () => log.push('second'));
    await tick();
    expect(log).toEqual([]);
    finishFirst();
    await Promise.all([first, held, second]);
    expect(log).toEqual(['first done', 'held', 'released', 'second']);
  });

  it('fails operations once retired', async () => {
    const gate = new SwitchGate();
    gate.retire(new Error('dropped'));
    await expect(gate.run(async () => 1)).rejects.toThrow('dropped');
  });

  it('gates every method of a store but close, and leaves calls inside the store alone', async () => {
    const namespace = new MongoNamespace('__rb_x');
    const store = {
      names: [] as string[],
      async read() {
        this.names.push(namespace.of('rm_users'));
        return this.inner();
      },
      async inner() {
        return 'ok';
      },
      async close() {
        return 'closed';
      },
    };
    const proxy = gated(store, namespace.gate);
    let switched!: () => void;
    const held = namespace.gate.hold(() => new Promise<void>((resolve) => (switched = resolve)).then(() => void (namespace.suffix = '')));
    await tick();
    const read = proxy.read();
    expect(await proxy.close()).toBe('closed');
    await tick();
    expect(store.names).toEqual([]);
    switched();
    await held;
    expect(await read).toBe('ok');
    expect(store.names).toEqual(['rm_users']);
    expect(namespace.isLive).toBe(true);
  });
});
