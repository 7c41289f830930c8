import { DeciderRunner, SNAPSHOT_STORE, type EventStorePort, type SnapshotStorePort } from '@app/application';
import { usersStream } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * A command on a long stream (docs/operations.md, "Command reads and snapshots"): users-<realm> after many creations
 * still refuses a taken address, while each command reads a bounded number of its events.
 */
describe('bounded command reads', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const HISTORY = 300;

  /** Counts the events each readStream of the users stream returns. */
  function countReads(store: EventStorePort, streamId: string): number[] {
    const reads: number[] = [];
    const original = store.readStream.bind(store);
    jest.spyOn(store, 'readStream').mockImplementation(async (id, options) => {
      const result = await original(id, options);
      if (id === streamId) reads.push(result.events.length);
      return result;
    });
    return reads;
  }

  it('after 300 user creations, a new account\'s address is checked against all of them, reading one snapshot interval at most', async () => {
    const stream = usersStream(api.realmId);
    const template = (await api.eventStore.readStream(stream)).events.find((e) => e.type === 'UserCreated')!;
    // Given: a long history, written straight to the log (ids far above the allocator's).
    await api.givenEvents(
      stream,
      Array.from({ length: HISTORY }, (_, i) => ({
        type: 'UserCreated',
        data: { ...template.data, userId: 100_000 + i, email: `bulk${i}@acme.test`, fullName: `Bulk User ${i}`, role: 'member', isBot: false, botType: null, botOwnerId: null },
      })),
    );
    const reads = countReads(api.eventStore, stream);
    const create = (email: string) => api.as('iago').post('/api/v1/users', { email, password: 'long-enough', full_name: 'Some Body' });

    // The first command reads the whole stream and leaves a snapshot of it.
    expectError(await create('bulk3@acme.test'), "Email 'bulk3@acme.test' already in use");
    const total = HISTORY + 6;
    expect(reads).toEqual([total]);
    const snapshot = await api.app.get<SnapshotStorePort>(SNAPSHOT_STORE).load(stream, 'users');
    expect(snapshot?.revision).toBe(BigInt(total - 1));

    // Then every rule still sees the whole history: an early address, a late one, in another case,
    // and accounts created after the snapshot.
    expectError(await create('bulk299@acme.test'), "Email 'bulk299@acme.test' already in use");
    expectError(await create('BULK150@acme.test'), "Email 'BULK150@acme.test' already in use");
    const { user_id } = expectSuccess(await create('fresh@acme.test'));
    expectError(await create('fresh@acme.test'), "Email 'fresh@acme.test' already in use");
    expect(expectSuccess(await api.as('iago').get(`/api/v1/users/${user_id}`)).user).toMatchObject({ email: 'fresh@acme.test' });
    expect(expectSuccess(await api.as('iago').get('/api/v1/users/bulk299@acme.test')).user).toMatchObject({ user_id: 100_299 });

    // Reads after the snapshot: the event at its revision and the ones after it.
    expect(reads.slice(1)).toEqual([1, 1, 1, 2]);
    expect(Math.max(...reads.slice(1))).toBeLessThanOrEqual(DeciderRunner.SNAPSHOT_EVERY + 1);
  }, 30_000);
});
