import { type ClientEventReactor, type EventStorePort, EventQueues, type ProjectionWaiter, type ReadStorePort } from '@app/application';
import { ALL_PROJECTIONS, USER_MESSAGES_PROJECTION } from '@app/projections';
import { RegisterCoordinator } from './register-coordinator';

/** The snapshot protocol with a scripted projector: commits land while the state is being read. */
describe('RegisterCoordinator', () => {
  const names = [...ALL_PROJECTIONS.map((p) => p.name), USER_MESSAGES_PROJECTION];
  let checkpoints: Record<string, bigint>;
  let queues: EventQueues;
  const reactor = { position: 5n } as ClientEventReactor;
  /** As the projector's: resolves once every read model reflects the log up to the position. */
  const waiter = {
    waitFor: async (position: bigint | undefined) => {
      while (position !== undefined && names.some((name) => (checkpoints[name] ?? -1n) < position)) await new Promise((r) => setTimeout(r, 1));
    },
  } as unknown as ProjectionWaiter;
  const readStore = { getCheckpoints: async () => ({ ...checkpoints }) } as unknown as ReadStorePort;
  const events = { headPosition: async () => 6n } as unknown as EventStorePort;
  const commitAt = (position: bigint) => {
    for (const name of names) checkpoints[name] = position;
  };

  beforeEach(() => {
    checkpoints = {};
    commitAt(5n);
    queues = new EventQueues({ instanceId: 't' });
  });
  afterEach(() => queues.stop());

  it('reads again when a commit lands during the read, then queues only what came after the state', async () => {
    const coordinator = new RegisterCoordinator(queues, reactor, waiter, readStore, events);
    let reads = 0;
    const { queue, state, position } = await coordinator.register({ userId: 1, realmId: 1, eventTypes: null }, async () => {
      reads++;
      if (reads === 1) {
        // The reactor delivers event 6 to the new (buffering) queue, and the projector commits it mid-read.
        queues.deliver([1], { type: 'six' }, 6n);
        commitAt(6n);
      }
      if (reads === 2) queues.deliver([1], { type: 'seven' }, 7n);
      return `state read ${reads}`;
    });
    expect({ state, position }).toEqual({ state: 'state read 2', position: 6n });
    queues.deliver([1], { type: 'six again' }, 6n);
    queues.deliver([1], { type: 'eight' }, 8n);
    expect((await queues.fetch(queue, -1, true)).map((e) => e.type)).toEqual(['seven', 'eight']);
  });

  it('waits while the projections stand at different positions (the bulk store ahead of the documents)', async () => {
    const coordinator = new RegisterCoordinator(queues, reactor, waiter, readStore, events);
    checkpoints[USER_MESSAGES_PROJECTION] = 6n;
    setTimeout(() => commitAt(6n), 5);
    const { position } = await coordinator.register({ userId: 1, realmId: 1, eventTypes: null }, async () => 'state');
    expect(position).toBe(6n);
  });

  it('drops the queue when the read fails', async () => {
    const coordinator = new RegisterCoordinator(queues, reactor, waiter, readStore, events);
    await expect(coordinator.register({ userId: 1, realmId: 1, eventTypes: null }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(queues.size).toBe(0);
  });
});
