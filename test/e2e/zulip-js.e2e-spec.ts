import type { AddressInfo } from 'node:net';
import { ApiTestClient } from '../support';

// The official JavaScript client, unmodified (npm `zulip-js`). It sends every POST as multipart
// form data and the parameters of GET, PATCH and DELETE in the query string.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit: (config: { username: string; apiKey: string; realm: string }) => Promise<any> = require('zulip-js');

/**
 * Issue #13: the official JavaScript client drives the server through the flows a real user
 * meets first, against a real listening HTTP server (not supertest's in-process shortcut).
 */
describe('the official JavaScript client (zulip-js) against the server', () => {
  let api: ApiTestClient;
  let siteUrl: string;
  let hamlet: any;
  let cordelia: any;

  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] });
    await api.app.listen(0, '127.0.0.1');
    const { port } = api.app.getHttpServer().address() as AddressInfo;
    siteUrl = `http://127.0.0.1:${port}`;
    const client = (name: string) =>
      zulipInit({ username: api.user(name).email, apiKey: api.user(name).apiKey, realm: siteUrl });
    hamlet = await client('hamlet');
    cordelia = await client('cordelia');
  });

  afterAll(async () => {
    await api?.close();
  });

  it('reads the server settings under the names the official clients read', async () => {
    const settings = await hamlet.server.settings();
    expect(settings.result).toBe('success');
    expect(typeof settings.zulip_version).toBe('string');
    expect(settings.zulip_feature_level).toBe(settings.svc_feature_level);
    expect(settings.realm_uri ?? settings.realm_url).toBe(settings.realm_url ?? settings.realm_uri);
  });

  it('reads its own profile', async () => {
    const me = await hamlet.users.me.getProfile();
    expect(me).toMatchObject({ result: 'success', user_id: api.user('hamlet').userId, email: api.user('hamlet').email });
  });

  it('subscribes, lists channels and subscriptions, and looks up a channel id', async () => {
    const subscribed = await hamlet.users.me.subscriptions.add({
      subscriptions: [{ name: 'zulip-js e2e', description: 'made by the JS client' }],
      principals: [api.user('hamlet').email, api.user('cordelia').email],
    });
    expect(subscribed.result).toBe('success');
    expect(subscribed.subscribed[api.user('hamlet').userId] ?? subscribed.subscribed[api.user('hamlet').email]).toEqual(['zulip-js e2e']);

    const streams = await hamlet.streams.retrieve();
    expect(streams.streams.map((s: any) => s.name)).toContain('zulip-js e2e');
    const subscriptions = await cordelia.streams.subscriptions.retrieve();
    expect(subscriptions.subscriptions.map((s: any) => s.name)).toContain('zulip-js e2e');
    const { stream_id } = await hamlet.streams.getStreamId('zulip-js e2e');
    expect(stream_id).toBe(streams.streams.find((s: any) => s.name === 'zulip-js e2e').stream_id);
  });

  it('sends a channel message and a direct message, and fetches them with narrows', async () => {
    const sent = await hamlet.messages.send({ type: 'stream', to: 'zulip-js e2e', topic: 'greetings', content: 'Hello from zulip-js' });
    expect(sent).toMatchObject({ result: 'success', id: expect.any(Number) });
    const direct = await hamlet.messages.send({ type: 'private', to: [api.user('cordelia').userId], content: 'A private word' });
    expect(direct.result).toBe('success');

    const inTopic = await cordelia.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'zulip-js e2e' },
        { operator: 'topic', operand: 'greetings' },
      ],
    });
    expect(inTopic).toMatchObject({ result: 'success' });
    expect(inTopic.messages.map((m: any) => [m.id, m.content])).toEqual([[sent.id, '<p>Hello from zulip-js</p>']]);
    expect(inTopic.messages[0].flags).not.toContain('read');

    const dms = await cordelia.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: api.user('hamlet').email }],
    });
    expect([dms.result, dms.msg]).toEqual(['success', '']);
    expect(dms.messages.map((m: any) => m.id)).toEqual([direct.id]);
  });

  it('adds and removes a flag, reading the result back', async () => {
    const { id } = await hamlet.messages.send({ type: 'stream', to: 'zulip-js e2e', topic: 'flags', content: 'Star me' });
    const added = await cordelia.messages.flags.add({ flag: 'starred', messages: [id] });
    expect(added).toMatchObject({ result: 'success', messages: [id] });
    expect((await cordelia.messages.getById({ message_id: id })).message.flags).toContain('starred');

    const removed = await cordelia.messages.flags.remove({ flag: 'starred', messages: [id] });
    expect(removed).toMatchObject({ result: 'success', messages: [id] });
    expect((await cordelia.messages.getById({ message_id: id })).message.flags).not.toContain('starred');
  });

  it('edits a message content and topic (PATCH parameters in the query string)', async () => {
    const { id } = await hamlet.messages.send({ type: 'stream', to: 'zulip-js e2e', topic: 'draft topic', content: 'First wording' });
    expect((await hamlet.messages.update({ message_id: id, content: 'Second wording' })).result).toBe('success');
    expect((await hamlet.messages.update({ message_id: id, topic: 'final topic', propagate_mode: 'change_all' })).result).toBe('success');

    const { message } = await cordelia.messages.getById({ message_id: id });
    expect(message).toMatchObject({ content: '<p>Second wording</p>', subject: 'final topic' });
  });

  it('adds and removes a reaction (reactions.add / reactions.remove), seen in the message and as reaction events', async () => {
    const { id } = await hamlet.messages.send({ type: 'stream', to: 'zulip-js e2e', topic: 'reactions', content: 'React to me' });
    const queue = await hamlet.queues.register({ event_types: ['reaction'] });

    expect(await cordelia.reactions.add({ message_id: id, emoji_name: 'octopus' })).toMatchObject({ result: 'success' });
    const reacted = (await hamlet.messages.getById({ message_id: id })).message;
    expect(reacted.reactions).toEqual([{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: api.user('cordelia').userId }]);
    const again = await cordelia.reactions.add({ message_id: id, emoji_name: 'octopus' });
    expect([again.result, again.code, again.msg]).toEqual(['error', 'REACTION_ALREADY_EXISTS', 'Reaction already exists.']);

    expect(await cordelia.reactions.remove({ message_id: id, emoji_code: '1f419', reaction_type: 'unicode_emoji' })).toMatchObject({ result: 'success' });
    expect((await hamlet.messages.getById({ message_id: id })).message.reactions).toEqual([]);

    const polled = await hamlet.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true });
    expect(polled.events.filter((e: any) => e.type === 'reaction').map((e: any) => [e.op, e.message_id, e.user_id, e.emoji_name])).toEqual([
      ['add', id, api.user('cordelia').userId, 'octopus'],
      ['remove', id, api.user('cordelia').userId, 'octopus'],
    ]);
    expect((await hamlet.queues.deregister({ queue_id: queue.queue_id })).result).toBe('success');
  });

  it("reacts with Zulip's extra emoji, reads back zulip_extra_emoji and removes it with what it read", async () => {
    const { id } = await hamlet.messages.send({ type: 'stream', to: 'zulip-js e2e', topic: 'reactions', content: 'The logo' });
    const queue = await hamlet.queues.register({ event_types: ['reaction'] });
    expect(await cordelia.reactions.add({ message_id: id, emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' })).toMatchObject({ result: 'success' });
    const [read] = (await hamlet.messages.getById({ message_id: id })).message.reactions;
    expect(read).toEqual({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: api.user('cordelia').userId });
    const polled = await hamlet.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true });
    expect(polled.events.filter((e: any) => e.type === 'reaction').map((e: any) => [e.op, e.emoji_code, e.reaction_type])).toEqual([['add', 'zulip', 'zulip_extra_emoji']]);
    expect(await cordelia.reactions.remove({ message_id: id, emoji_code: read.emoji_code, reaction_type: read.reaction_type })).toMatchObject({ result: 'success' });
    expect((await hamlet.messages.getById({ message_id: id })).message.reactions).toEqual([]);
  });

  it("registers a queue and receives another client's message as an event", async () => {
    const queue = await cordelia.queues.register({ event_types: ['message'] });
    expect(queue).toMatchObject({ result: 'success', queue_id: expect.any(String), last_event_id: expect.any(Number) });

    const waiting = cordelia.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    const { id } = await hamlet.messages.send({ type: 'stream', to: 'zulip-js e2e', topic: 'live', content: 'Wake up' });
    const polled = await waiting;

    expect(polled.result).toBe('success');
    const messageEvents = polled.events.filter((e: any) => e.type === 'message');
    expect(messageEvents.map((e: any) => e.message.id)).toEqual([id]);
    expect((await cordelia.queues.deregister({ queue_id: queue.queue_id })).result).toBe('success');
  });
  it('updates presence through the generic callEndpoint (zulip-js has no presence method) and others see it', async () => {
    const queue = await cordelia.queues.register({ event_types: ['presence'] });
    const waiting = cordelia.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    const hamletId = api.user('hamlet').userId;
    // zulip-js sends POST parameters as multipart strings (its FormData refuses booleans).
    const pinged = await hamlet.callEndpoint('/users/me/presence', 'POST', { status: 'active', new_user_input: 'true', slim_presence: 'true' });
    const at = Math.floor(api.clock.now().getTime() / 1000);
    expect(pinged).toMatchObject({ result: 'success', presences: { [String(hamletId)]: { active_timestamp: at, idle_timestamp: at } } });
    const polled = await waiting;
    expect(polled.events.filter((e: any) => e.type === 'presence')).toEqual([
      expect.objectContaining({ type: 'presence', user_id: hamletId, presence: { website: { client: 'website', status: 'active', timestamp: at, pushable: false } } }),
    ]);
    const one = await cordelia.callEndpoint(`/users/${api.user('hamlet').email}/presence`, 'GET');
    expect(one).toMatchObject({ result: 'success', presence: { aggregated: { status: 'active', timestamp: at } } });
    const realm = await cordelia.callEndpoint('/realm/presence', 'GET');
    expect(Object.keys(realm.presences)).toEqual([api.user('hamlet').email]);
    expect((await cordelia.callEndpoint('/users/me/presence', 'POST', { status: 'sleeping' })).msg).toBe('Invalid status: sleeping');
    expect((await cordelia.queues.deregister({ queue_id: queue.queue_id })).result).toBe('success');
  });
});
