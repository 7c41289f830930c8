import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PushRegistrationQueries, rawEventStore } from '@app/application';
import { pushDevicesStream, userStatusStream } from '@app/domain';
import { OTHER_PUSH_KEY } from '@app/testing';
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

/**
 * Push-device events of version 1 (the push key, the encrypted registration and a legacy token in
 * clear), appended as an old server wrote them and not migrated: read upcast, so `/register`
 * shows the device, a key rotation and a token removal through the API work on them, and neither
 * the history nor the read model shows a secret.
 */
describe('push-device events of version 1', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet'], config: { pushNotificationsBouncerUrl: 'https://push.example.com' } })));
  afterEach(() => api.close());

  const fixture = () =>
    readFileSync(join(__dirname, '../fixtures/events/push-devices.v1.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: string; type: string; data: Record<string, unknown>; metadata: { schemaVersion: number } });

  it('are upcast when read; the API works on them; no secret shows', async () => {
    const hamlet = api.user('hamlet').userId;
    const { position } = await rawEventStore(api.eventStore).appendToStream(
      pushDevicesStream(hamlet),
      fixture().map((e) => ({ id: e.id, type: e.type, data: { ...e.data, realmId: api.realmId, userId: hamlet }, metadata: e.metadata })),
      { expectedRevision: 'no_stream' },
    );
    await api.app.get(Projector).waitFor(position);
    const register = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: JSON.stringify(['device']) }));
    expect(register.devices).toEqual({ 77: expect.objectContaining({ push_key_id: 2408 }) });

    const history = expectSuccess(await api.as('iago').get('/api/v1/svc/history', { stream: pushDevicesStream(hamlet) }));
    expect(history.history.map((h: { schema_version: number }) => h.schema_version)).toEqual([2, 2]);
    // What every reader of the log gets (projections, deciders, the history): the upcast shape.
    const read = (await api.eventStore.readStream(pushDevicesStream(hamlet))).events.map((e) => e.data);
    expect(read[0]).toMatchObject({ pushKeyEntryId: `push_key:${fixture()[0].id}`, registrationEntryId: `push_registration:${fixture()[0].id}` });
    const shown = JSON.stringify([history, read, await api.app.get(PushRegistrationQueries).of(api.realmId, hamlet)]);
    for (const secret of ['old-encrypted-push-registration', 'old-legacy-fcm-token', fixture()[0].data.pushKey as string]) expect(shown.includes(secret) ? secret : null).toBeNull();

    // The decider folds the upcast events: a rotation of the old registration's key, the removal of the old token.
    await api.markEvents();
    expectSuccess(await api.as('hamlet').post('/api/v1/mobile_push/register', { device_id: 77, push_key: OTHER_PUSH_KEY, push_key_id: 1144 }));
    expectSuccess(await api.as('hamlet').delete('/api/v1/users/me/android_gcm_reg_id', { token: 'old-legacy-fcm-token' }));
    expect((await api.newEvents()).map((e) => [e.type, e.metadata.schemaVersion])).toEqual([['PushKeyRotated', 2], ['LegacyPushTokenRemoved', 2]]);
    const targets = await api.app.get(PushRegistrationQueries).targets(api.realmId, hamlet);
    expect(targets.legacyTokens).toEqual([]);
  });
});
