import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * A subscription that changes whether a user can see a channel changes their `streams`
 * (send_stream_creation_events_for_previously_inaccessible_streams, send_stream_deletion_event in
 * zerver/actions/streams.py): the queue gets a `stream` `create` before the `subscription` `add`,
 * and a `stream` `delete` after the `subscription` `remove`, so that folding the events gives
 * what a fresh register answers (found by test/api/event-completeness.api-spec.ts).
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('stream events when a subscription changes who can see a channel', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] })));
  afterAll(() => api.close());

  const { id, register: registerAs, events } = personaHelpers(() => api);
  const register = (who: string) => registerAs(who, { fetch_event_types: ['stream'], event_types: ['stream', 'subscription'] });
  const visible = async (who: string) => ((await register(who)).streams as { stream_id: number }[]).map((s) => s.stream_id);
  const kinds = (list: Record<string, any>[]) => list.map((e) => `${e.type}/${e.op}`);

  it('a private channel: create before add when subscribed, delete after remove when unsubscribed', async () => {
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], invite_only: true }));
    const channelId = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'secret' })).stream_id as number;
    const { queue_id, streams } = await register('cordelia');
    expect(streams.map((s: { stream_id: number }) => s.stream_id)).not.toContain(channelId);

    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], principals: [id('cordelia')] }));
    let got = await events('cordelia', queue_id);
    expect(kinds(got)).toEqual(['stream/create', 'subscription/add']);
    expect(got[0].streams).toEqual([expect.objectContaining({ stream_id: channelId, name: 'secret', invite_only: true })]);
    expect(await visible('cordelia')).toContain(channelId);

    expectSuccess(await api.as('cordelia').delete(SUBSCRIPTIONS, { subscriptions: ['secret'] }));
    got = (await events('cordelia', queue_id)).slice(2);
    expect(got).toEqual([
      expect.objectContaining({ type: 'subscription', op: 'remove' }),
      { id: 3, type: 'stream', op: 'delete', streams: [{ stream_id: channelId }], stream_ids: [channelId] },
    ]);
    expect(await visible('cordelia')).not.toContain(channelId);
  });

  it('a public channel: only a guest gains and loses it; a member sees it all along', async () => {
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'plaza' }] }));
    const channelId = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'plaza' })).stream_id as number;
    const guest = await register('polonius');
    const member = await register('hamlet');
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'plaza' }], principals: [id('polonius'), id('hamlet')] }));
    expectSuccess(await api.as('polonius').delete(SUBSCRIPTIONS, { subscriptions: ['plaza'] }));
    expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['plaza'] }));
    const mine = (list: Record<string, any>[]) => list.filter((e) => e.type === 'stream' || ['add', 'remove'].includes(e.op));
    expect(kinds(mine(await events('polonius', guest.queue_id)))).toEqual(['stream/create', 'subscription/add', 'subscription/remove', 'stream/delete']);
    expect(kinds(mine(await events('hamlet', member.queue_id)))).toEqual(['subscription/add', 'subscription/remove']);
    expect(await visible('polonius')).not.toContain(channelId);
    expect(await visible('hamlet')).toContain(channelId);
  });

  it("an administrator sees every private channel in /register's streams and gets neither create nor delete for it", async () => {
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'hideout' }], invite_only: true }));
    const channelId = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'hideout' })).stream_id as number;
    // do_get_streams(include_all=True): metadata access, which administrators have for every channel.
    const admin = await register('iago');
    expect(admin.streams.map((s: { stream_id: number }) => s.stream_id)).toContain(channelId);
    expect(await visible('cordelia')).not.toContain(channelId);

    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'hideout' }], principals: [id('iago')] }));
    expectSuccess(await api.as('iago').delete(SUBSCRIPTIONS, { subscriptions: ['hideout'] }));
    const mine = (await events('iago', admin.queue_id)).filter((e) => e.type === 'stream' || ['add', 'remove'].includes(e.op));
    expect(kinds(mine)).toEqual(['subscription/add', 'subscription/remove']);
    expect(await visible('iago')).toContain(channelId);
  });
});
