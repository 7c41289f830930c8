import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rawEventStore } from '@app/application';
import { userStatusStream } from '@app/domain';
import { Projector } from '@app/projections';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * Event versions through the whole app: the stored UserStatusChanged v1 fixture (the emoji as one
 * object) appended as an old server wrote it is upcast when read, so the projection, the status
 * endpoint and the audit history see the current shape; new events are written as v2.
 */
jest.setTimeout(30_000);

describe('event versions', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet'] })));
  afterEach(() => api.close());

  const fixture = () =>
    readFileSync(join(__dirname, '../fixtures/events/user-status-changed.v1.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: string; type: string; data: Record<string, unknown>; metadata: { schemaVersion: number } });

  it('upcasts stored v1 events when read, and writes v2', async () => {
    const hamlet = api.user('hamlet').userId;
    const [set] = fixture();
    // Appended verbatim (as an import of an old export does), with this test's ids.
    const { position } = await rawEventStore(api.eventStore).appendToStream(
      userStatusStream(hamlet),
      [{ id: set.id, type: set.type, data: { ...set.data, realmId: api.realmId, userId: hamlet, actorId: hamlet }, metadata: set.metadata }],
      { expectedRevision: 'no_stream' },
    );
    await api.app.get(Projector).waitFor(position);
    const status = expectSuccess(await api.as('iago').get(`/api/v1/users/${hamlet}/status`)).status;
    expect(status).toEqual({ status_text: 'out sick', emoji_name: 'sick', emoji_code: '1f912', reaction_type: 'unicode_emoji' });

    const [stored] = (await rawEventStore(api.eventStore).readStream(userStatusStream(hamlet))).events;
    expect(stored.metadata.schemaVersion).toBe(1);
    expect(stored.data).toHaveProperty('emoji');
    const history = expectSuccess(await api.as('iago').get('/api/v1/svc/history', { user_id: hamlet })).history;
    expect(history.at(-1)).toMatchObject({ type: 'UserStatusChanged', schema_version: 2, data: { emojiName: 'sick', emojiCode: '1f912' } });

    await api.markEvents();
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/status', { status_text: 'better' }));
    const [written] = await api.newEvents();
    expect(written).toMatchObject({ type: 'UserStatusChanged', metadata: { schemaVersion: 2 } });
  });
});
