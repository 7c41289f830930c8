import { EVENT_STORE, LIVE_READ_MODELS, LOGGER, type LiveReadModels } from '@app/application';
import { ProjectionRebuilder, Projector, type RebuildProgress } from '@app/projections';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import type { AddressInfo } from 'node:net';
import { buildProgram } from '../../apps/cli/src/commands';
import { differences, dumpReadModels } from '../replay/read-model-dump';

/** The operators' endpoints and blue/green rebuilds through the whole app (docs/operations.md). */
jest.setTimeout(60_000);

describe('operations: projections, rebuilds, history', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const live = () => api.app.get<LiveReadModels>(LIVE_READ_MODELS);
  const dump = () => dumpReadModels(live().readStore, live().userMessages.port);
  const { createChannel: createAs, sendToChannel } = personaHelpers(() => api);
  const createChannel = (name: string) => createAs('hamlet', name);
  const send = (content: string, topic = 'plans') => sendToChannel('hamlet', 'Denmark', topic, content);
  /** A rebuilder like the app's, with a hook that runs after the copy caught up and before the switch. */
  const rebuilderWith = (beforeSwitch: () => Promise<void>) =>
    new ProjectionRebuilder(api.app.get(EVENT_STORE), live(), api.app.get(Projector), api.app.get(LOGGER), { beforeSwitch });

  it('lists every projection with its checkpoint and lag (administrators only)', async () => {
    const body = expectSuccess(await api.as('iago').get('/api/v1/svc/projections'));
    const users = body.projections.find((p: { name: string }) => p.name === 'users');
    expect(users).toEqual({ name: 'users', collection: 'users', copy: 'read-models.sqlite', checkpoint: expect.stringMatching(/^\d+$/), lag: '0' });
    expect(body.projections.map((p: { name: string }) => p.name)).toContain('user_messages');
    expect(body.rebuild).toBeNull();
    expectError(await api.as('hamlet').get('/api/v1/svc/projections'), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL', status: 400 });
  });

  it('rebuilds everything blue/green while a write arrives, and keeps serving', async () => {
    await createChannel('Denmark');
    const before = [await send('one'), await send('two')];
    let duringRebuild: number | undefined;
    const phases: string[] = [];
    const result = await rebuilderWith(async () => {
      // The copy has caught up; the old copy still serves: a write and a read go through.
      duringRebuild = await send('written during the rebuild');
      const fetched = expectSuccess(await api.as('hamlet').get(`/api/v1/messages/${before[0]}`));
      expect(fetched.message.content).toContain('one');
    }).rebuild('all', (p: RebuildProgress) => phases.push(p.phase));
    expect(result).toMatchObject({ target: 'all', phase: 'done', error: null });
    expect(result.copy).toMatch(/^read-models-.*\.sqlite$/);
    expect(phases).toContain('replaying');
    expect(phases).toContain('switching');

    // The new copy serves, with the write that arrived meanwhile.
    const messages = expectSuccess(await api.as('hamlet').get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [] })).messages;
    expect(messages.map((m: { id: number }) => m.id)).toEqual([...before, duringRebuild]);
    expect(live().readStore.currentLayout()).toEqual({ default: result.copy, collections: {}, checkpoints: {} });
    const listed = expectSuccess(await api.as('iago').get('/api/v1/svc/projections')).projections;
    expect(listed.every((p: { copy: string; lag: string }) => p.copy === result.copy && p.lag === '0')).toBe(true);

    // Writes after the switch land in the new copy; a second rebuild from zero gives the same documents.
    await send('after the switch');
    const afterFirst = await dump();
    await rebuilderWith(async () => undefined).rebuild('all');
    expect(differences(await dump(), afterFirst)).toEqual([]);
  });

  it('rebuilds one projection into a copy of its own', async () => {
    await createChannel('Denmark');
    await send('one');
    const beforeDump = await dump();
    const result = await rebuilderWith(async () => {
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { full_name: 'Prince Hamlet' }));
    }).rebuild('users');
    expect(live().readStore.currentLayout()).toEqual({
      default: 'read-models.sqlite', collections: { users: result.copy }, checkpoints: { users: result.copy },
    });
    const me = expectSuccess(await api.as('hamlet').get('/api/v1/users/me'));
    expect(me.full_name).toBe('Prince Hamlet');
    const afterDump = await dump();
    expect(differences(afterDump, beforeDump).map((d) => d.collection)).toEqual(['users']);
    // The old copy no longer holds the users collection.
    expect(await live().readStore.storeForCollection('users').count('users')).toBe(afterDump.users.length);
  });

  it('starts a rebuild over HTTP and reports it', async () => {
    const started = expectSuccess(await api.as('iago').post('/api/v1/svc/projections/rebuild', { projection: 'drafts' }));
    expect(started.rebuild).toMatchObject({ target: 'drafts', phase: 'replaying' });
    await api.app.get(ProjectionRebuilder).settled();
    const body = expectSuccess(await api.as('iago').get('/api/v1/svc/projections'));
    expect(body.rebuild).toMatchObject({ target: 'drafts', phase: 'done' });
    expectError(await api.as('iago').post('/api/v1/svc/projections/rebuild', { projection: 'nope' }), 'No projection named "nope"; see the list of projections.');
    expectError(await api.as('shiva').post('/api/v1/svc/projections/rebuild', {}), 'Must be an organization administrator');
  });

  it('lets the CLI drive a rebuild on a running server (team-chat rebuild --server)', async () => {
    await api.app.listen(0, '127.0.0.1');
    const { port } = api.app.getHttpServer().address() as AddressInfo;
    const out: string[] = [];
    const err: string[] = [];
    const program = buildProgram(() => Promise.reject(new Error('no local app')), { out: (l) => out.push(l), err: (l) => err.push(l) });
    const { email, apiKey } = api.user('iago');
    await program.parseAsync(['node', 'cli', 'rebuild', 'drafts', '--server', `http://127.0.0.1:${port}`, '--email', email, '--api-key', apiKey]);
    expect(out).toEqual([expect.stringMatching(/^Rebuilt drafts from \d+ events in [\d.]+ s; now serving read-models-.+\.sqlite\.$/)]);
    expect(err[0]).toMatch(/^rebuild drafts: replaying/);
    const hamlet = api.user('hamlet');
    const refused = buildProgram(() => Promise.reject(new Error('no local app')), { out: () => undefined, err: () => undefined });
    await expect(refused.parseAsync(['node', 'cli', 'rebuild', '--server', `http://127.0.0.1:${port}`, '--email', hamlet.email, '--api-key', hamlet.apiKey]))
      .rejects.toThrow('Must be an organization administrator');
  });

  it('abandons a rebuild under way when the server stops, keeping the live copy', async () => {
    expectSuccess(await api.as('iago').post('/api/v1/svc/projections/rebuild', {}));
    // afterEach closes the app now: the rebuild's projector stops and its copy is dropped.
  });

  it('shows the audit history of the organization\'s settings and of a user', async () => {
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { name: 'Acme Worldwide' }));
    const realm = expectSuccess(await api.as('iago').get('/api/v1/svc/history', { realm: true })).history;
    expect(realm.at(-1)).toMatchObject({
      type: 'RealmPropertyChanged', actor_id: api.user('iago').userId, changes: [{ field: 'name', old: 'Acme Corp', new: 'Acme Worldwide' }],
    });
    const hamlet = api.user('hamlet').userId;
    expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { full_name: 'Prince Hamlet' }));
    const history = expectSuccess(await api.as('iago').get('/api/v1/svc/history', { user_id: hamlet })).history;
    expect(history[0]).toMatchObject({ type: 'UserCreated', stream: expect.stringMatching(/^users-/) });
    expect(history.at(-1)).toMatchObject({ actor_id: hamlet, changes: [{ field: 'name', old: expect.any(String), new: 'Prince Hamlet' }] });
    expectError(await api.as('iago').get('/api/v1/svc/history', {}), 'Exactly one of stream, message_id, channel_id, user_id or realm is required');
    expectError(await api.as('hamlet').get('/api/v1/svc/history', { realm: true }), 'Must be an organization administrator');
  });
});
