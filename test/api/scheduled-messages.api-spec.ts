import { CommandBus } from '@nestjs/cqrs';
import { DeliverScheduledMessageCommand, SCHEDULER, ScheduledDeliveries } from '@app/application';
import type { TimerScheduler } from '@app/infrastructure';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** /scheduled_messages through the whole app (≈ zerver/tests/test_scheduled_messages.py). */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const SCHEDULED = '/api/v1/scheduled_messages';

describe('/scheduled_messages', () => {
  let api: ApiTestClient;
  let verona: number;
  beforeEach(async () => {
    api = await ApiTestClient.start();
    verona = await createChannel('hamlet', 'Verona', [id('hamlet'), id('cordelia')]);
  });
  afterEach(() => api.close());

  const { id, createChannel: createAs } = personaHelpers(() => api);
  const now = () => Math.floor(api.clock.now().getTime() / 1000);
  const createChannel = (who: string, name: string, principals: number[]) => createAs(who, name, { principals }, { lookUpAs: 'iago' });
  const schedule = (params: Record<string, unknown> = {}, who = 'hamlet') =>
    api.as(who).post(SCHEDULED, { type: 'channel', to: verona, topic: 'Test topic', content: 'Test message', scheduled_delivery_timestamp: now() + 300, ...params });
  const scheduled = async (params: Record<string, unknown> = {}, who = 'hamlet'): Promise<number> =>
    expectSuccess(await schedule(params, who)).scheduled_message_id;
  const list = async (who = 'hamlet') => expectSuccess(await api.as(who).get(SCHEDULED)).scheduled_messages as Record<string, any>[];
  const refused = async (response: Parameters<typeof expectError>[0], msg: string, options: { code?: string; status?: number } = {}) => {
    await api.markEvents();
    const body = expectError(response, msg, options);
    expect(await api.newEvents()).toEqual([]);
    return body;
  };
  /** The timers of the process running the deliveries, once it has armed every write so far (the worker, in the split layout). */
  const scheduler = async () => {
    await api.settled();
    return api.background.get<TimerScheduler>(SCHEDULER);
  };
  /** Moves the fake clock and runs whatever became due, as the timers would. */
  const advance = async (seconds: number) => {
    api.clock.advance(seconds * 1000);
    await (await scheduler()).runDue();
  };
  const messagesOf = async (who: string) =>
    expectSuccess(await api.as(who).get('/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0 })).messages as Record<string, any>[];

  describe('POST', () => {
    it('schedules a channel message and lists it as ScheduledMessage.to_dict', async () => {
      const at = now() + 86400;
      const scheduledId = await scheduled({ content: 'Test message 1', scheduled_delivery_timestamp: at });
      expect(await list()).toEqual([
        { scheduled_message_id: scheduledId, to: verona, type: 'stream', content: 'Test message 1', rendered_content: '<p>Test message 1</p>', topic: 'Test topic', scheduled_delivery_timestamp: at, failed: false },
      ]);
      expect(await list('cordelia')).toEqual([]);
    });

    it('schedules a direct message by user ids; `to` lists the other participants', async () => {
      const scheduledId = await scheduled({ type: 'direct', to: [id('cordelia')], topic: undefined, content: 'Test message 3' });
      expect(await list()).toEqual([expect.objectContaining({ scheduled_message_id: scheduledId, type: 'private', to: [id('cordelia')], content: 'Test message 3' })]);
      expect((await list())[0]).not.toHaveProperty('topic');
      const self = await scheduled({ type: 'direct', to: [id('hamlet')], topic: undefined });
      expect((await list()).find((m) => m.scheduled_message_id === self)).toMatchObject({ to: [id('hamlet')] });
    });

    it('answers an id that is not the id the message gets when sent', async () => {
      for (const content of ['a', 'b', 'c']) expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'channel', to: verona, topic: 'x', content }));
      const ids = [await scheduled(), await scheduled()];
      expect(ids[1]).toBeGreaterThan(ids[0]);
      await advance(301);
      const sent = (await messagesOf('hamlet')).filter((m) => m.content === '<p>Test message</p>').map((m) => m.id as number);
      expect(sent).toHaveLength(2);
      expect(sent.some((m) => ids.includes(m))).toBe(false);
    });

    it('refuses a time that is not in the future', async () => {
      await refused(await schedule({ scheduled_delivery_timestamp: now() - 86400 }), 'Scheduled delivery time must be in the future.', { code: 'BAD_REQUEST' });
      await refused(await schedule({ scheduled_delivery_timestamp: now() }), 'Scheduled delivery time must be in the future.');
    });

    it('STREAM_DOES_NOT_EXIST with stream_id for an unknown channel', async () => {
      const body = await refused(await schedule({ to: 9999 }), "Channel with ID '9999' does not exist", { code: 'STREAM_DOES_NOT_EXIST' });
      expect(body.stream_id).toBe(9999);
    });

    it('BAD_REQUEST for an invalid user id, and emails are not accepted', async () => {
      await refused(await schedule({ type: 'direct', to: [9999] }), 'Invalid user ID 9999', { code: 'BAD_REQUEST' });
      await refused(await schedule({ type: 'direct', to: [api.user('cordelia').email] }), 'to["int"] is not an integer');
    });

    it('checks the shape of `to` for the type (recipient_parsing.py): one channel id, or a list of user ids', async () => {
      await refused(await schedule({ type: 'channel', to: [verona] }), 'Invalid data type for channel ID', { code: 'BAD_REQUEST', status: 400 });
      await refused(await schedule({ type: 'stream', to: [verona, verona] }), 'Invalid data type for channel ID');
      await refused(await schedule({ type: 'direct', to: id('cordelia') }), 'Invalid data type for recipients', { code: 'BAD_REQUEST', status: 400 });
      await refused(await schedule({ type: 'private', to: id('cordelia') }), 'Invalid data type for recipients');
      await refused(await api.as('hamlet').post(SCHEDULED, { type: 'direct', to: 'cordelia', content: 'x', scheduled_delivery_timestamp: now() + 300 }), 'to is not valid JSON');
      // The right shapes are accepted.
      expectSuccess(await schedule({ type: 'direct', to: [id('cordelia')] }));
      expectSuccess(await schedule({ type: 'channel', to: verona }));
    });

    it('checks the message as a send would', async () => {
      await refused(await schedule({ topic: undefined }), 'Missing topic');
      await refused(await schedule({ content: '   ' }), 'Message must not be empty');
      await refused(await schedule({ type: 'carrier pigeon' }), 'Invalid type');
      const secret = await createChannel('iago', 'secret', [id('iago')]);
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${secret}`, { is_private: true }));
      await refused(await schedule({ to: secret }), "Not authorized to send to channel 'secret'");
    });

    it('requires its parameters', async () => {
      await refused(await api.as('hamlet').post(SCHEDULED, { type: 'channel', to: verona, topic: 't', content: 'x' }), "Missing 'scheduled_delivery_timestamp' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      await refused(await schedule({ scheduled_delivery_timestamp: 1.5 }), 'scheduled_delivery_timestamp is not an integer');
    });
  });

  describe('PATCH', () => {
    it('edits content and time, topic, and the recipient', async () => {
      const scheduledId = await scheduled();
      const path = `${SCHEDULED}/${scheduledId}`;
      expectSuccess(await api.as('hamlet').patch(path, { type: 'stream', to: verona, topic: 'Test topic' }));
      expectSuccess(await api.as('hamlet').patch(path, { content: 'Edited test message', scheduled_delivery_timestamp: now() + 3 * 86400 }));
      expect((await list())[0]).toMatchObject({ content: 'Edited test message', rendered_content: '<p>Edited test message</p>', scheduled_delivery_timestamp: now() + 3 * 86400 });
      expectSuccess(await api.as('hamlet').patch(path, { topic: 'Final topic for test' }));
      expect((await list())[0]).toMatchObject({ topic: 'Final topic for test', type: 'stream', to: verona });
      expectSuccess(await api.as('hamlet').patch(path, { type: 'direct', to: [id('cordelia')] }));
      expect((await list())[0]).toMatchObject({ type: 'private', to: [id('cordelia')], content: 'Edited test message' });
      expect((await list())[0]).not.toHaveProperty('topic');
      // A topic sent for a direct message is ignored.
      expectSuccess(await api.as('hamlet').patch(path, { topic: 'Direct message topic' }));
      expect((await list())[0]).not.toHaveProperty('topic');
      expectSuccess(await api.as('hamlet').patch(path, { type: 'channel', to: verona, topic: 'New test topic' }));
      expect((await list())[0]).toMatchObject({ type: 'stream', to: verona, topic: 'New test topic' });
    });

    it('refuses with Zulip’s errors, in Zulip’s order', async () => {
      const scheduledId = await scheduled();
      const path = `${SCHEDULED}/${scheduledId}`;
      await refused(await api.as('hamlet').patch(path, {}), 'Nothing to change');
      await refused(await api.as('hamlet').patch(path, { type: 'direct' }), 'Recipient required when updating type of scheduled message.');
      await refused(await api.as('hamlet').patch(path, { type: 'channel', to: verona }), 'Topic required when updating scheduled message type to channel.');
      await refused(await api.as('hamlet').patch(path, { scheduled_delivery_timestamp: now() - 86400 }), 'Scheduled delivery time must be in the future.');
      await refused(await api.as('cordelia').patch(path, { content: 'mine now' }), 'Scheduled message does not exist', { status: 404 });
      await refused(await api.as('hamlet').patch(`${SCHEDULED}/9999`, { content: 'x' }), 'Scheduled message does not exist', { status: 404 });
      await refused(await api.as('hamlet').patch(path, { to: 9999 }), "Channel with ID '9999' does not exist", { code: 'STREAM_DOES_NOT_EXIST' });
      await refused(await api.as('hamlet').patch(path, { content: '' }), 'Message must not be empty');
      await refused(await api.as('hamlet').patch(path, { type: 'direct', to: id('cordelia') }), 'Invalid data type for recipients');
      await refused(await api.as('hamlet').patch(path, { to: [verona] }), 'Invalid data type for channel ID');
    });

    it('refuses to edit a message that was already sent', async () => {
      const scheduledId = await scheduled({ type: 'direct', to: [id('cordelia')] });
      await advance(301);
      await refused(await api.as('hamlet').patch(`${SCHEDULED}/${scheduledId}`, { content: 'New message content', scheduled_delivery_timestamp: now() + 420 }), 'Scheduled message was already sent');
    });

    it('moves the delivery with the time: nothing at the old time, one message at the new one', async () => {
      const scheduledId = await scheduled({ content: 'moved' });
      expectSuccess(await api.as('hamlet').patch(`${SCHEDULED}/${scheduledId}`, { scheduled_delivery_timestamp: now() + 3600 }));
      expect(await (await scheduler()).pendingJobIds()).toEqual([`scheduled_message-${scheduledId}-at-${now() + 3600}`]);
      await advance(301);
      expect((await messagesOf('cordelia')).filter((m) => m.content === '<p>moved</p>')).toHaveLength(0);
      await advance(3600);
      expect((await messagesOf('cordelia')).filter((m) => m.content === '<p>moved</p>')).toHaveLength(1);
      expect(await list()).toEqual([]);
    });
  });

  describe('DELETE', () => {
    it('deletes the sender’s own; others and repeats get 404', async () => {
      const scheduledId = await scheduled();
      await refused(await api.as('cordelia').delete(`${SCHEDULED}/${scheduledId}`), 'Scheduled message does not exist', { status: 404 });
      expectSuccess(await api.as('hamlet').delete(`${SCHEDULED}/${scheduledId}`));
      expect(await list()).toEqual([]);
      expect(await (await scheduler()).pendingJobIds()).toEqual([]);
      await refused(await api.as('hamlet').delete(`${SCHEDULED}/${scheduledId}`), 'Scheduled message does not exist', { status: 404 });
      await advance(301);
      expect((await messagesOf('cordelia')).filter((m) => m.content === '<p>Test message</p>')).toHaveLength(0);
    });
  });

  describe('delivery', () => {
    it('sends a real message at the time, read for the sender as scheduled', async () => {
      await scheduled({ content: 'on time', read_by_sender: true });
      await advance(299);
      expect((await messagesOf('cordelia')).filter((m) => m.content === '<p>on time</p>')).toHaveLength(0);
      await advance(2);
      const [message] = (await messagesOf('cordelia')).filter((m) => m.content === '<p>on time</p>');
      expect(message).toMatchObject({ sender_id: id('hamlet'), stream_id: verona, subject: 'Test topic', type: 'stream' });
      const own = (await messagesOf('hamlet')).find((m) => m.id === message.id)!;
      expect(own.flags).toContain('read');
      expect(await list()).toEqual([]);
    });

    it('a duplicate job or a repeated run never sends twice', async () => {
      const scheduledId = await scheduled({ content: 'once' });
      api.clock.advance(301_000);
      const jobs = await scheduler();
      await jobs.schedule({ id: 'duplicate', name: 'deliver-scheduled-message', data: { scheduledMessageId: scheduledId }, runAt: api.clock.now() });
      await jobs.runDue();
      await jobs.schedule({ id: 'again', name: 'deliver-scheduled-message', data: { scheduledMessageId: scheduledId }, runAt: api.clock.now() });
      await jobs.runDue();
      expect((await messagesOf('cordelia')).filter((m) => m.content === '<p>once</p>')).toHaveLength(1);
    });

    it('racing deliveries of one message (two workers, duplicate jobs) send it once, with the claimed id', async () => {
      const scheduledIds = [await scheduled({ content: 'raced 1' }), await scheduled({ content: 'raced 2' })];
      api.clock.advance(301_000);
      const bus = api.app.get(CommandBus);
      const outcomes = await Promise.all(scheduledIds.flatMap((sid) => Array.from({ length: 4 }, () => bus.execute(new DeliverScheduledMessageCommand(sid)))));
      expect(outcomes.filter((o) => o === 'delivered')).toHaveLength(2);
      const sent = (await api.eventStore.readAll({ maxCount: 10_000 })).filter((e) => e.type === 'MessageSent' && /raced/.test(e.data.content));
      expect(sent).toHaveLength(2);
      const claims = (await api.eventStore.readAll({ maxCount: 10_000 })).filter((e) => e.type === 'ScheduledMessageDeliveryClaimed');
      expect(sent.map((e) => e.data.messageId).sort()).toEqual(claims.map((e) => e.data.messageId).sort());
      await (await scheduler()).runDue();
      expect((await api.eventStore.readAll({ maxCount: 10_000 })).filter((e) => e.type === 'MessageSent' && /raced/.test(e.data.content))).toHaveLength(2);
    });

    it('fails when the channel was archived, lists it as failed and Notification Bot tells the sender', async () => {
      const scheduledId = await scheduled({ content: 'too late for Verona' });
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${verona}`));
      await advance(301);
      const [failed] = await list();
      expect(failed).toMatchObject({ scheduled_message_id: scheduledId, failed: true });
      const [notice] = (await messagesOf('hamlet')).slice(-1);
      expect(notice).toMatchObject({ type: 'private', sender_full_name: 'Notification Bot' });
      expect(notice.content).toContain('was not sent because of the following error:');
      expect(notice.content).toContain('Not authorized to send to channel');
      // A failed message needs a new time; with one, it is pending again.
      await refused(await api.as('hamlet').patch(`${SCHEDULED}/${scheduledId}`, { topic: 'Failed to send' }), 'Scheduled delivery time must be in the future.');
      expectSuccess(await api.as('hamlet').patch(`${SCHEDULED}/${scheduledId}`, { scheduled_delivery_timestamp: now() + 3600 }));
      expect((await list())[0]).toMatchObject({ failed: false });
    });

    it('fails when the recipient was deactivated, or the sender lost the right to post', async () => {
      const toCordelia = await scheduled({ type: 'direct', to: [id('cordelia')], content: 'to a former colleague' });
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], principals: [id('hamlet'), id('iago')], invite_only: true }));
      const secret = (expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'secret' })).stream_id) as number;
      const toSecret = await scheduled({ to: secret, content: 'to a channel I left' });
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('cordelia')}`));
      expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['secret'] }));
      await advance(301);
      const failures = Object.fromEntries((await list()).map((m) => [m.scheduled_message_id, m.failed]));
      expect(failures).toEqual({ [toCordelia]: true, [toSecret]: true });
      const notices = (await messagesOf('hamlet')).filter((m) => m.sender_full_name === 'Notification Bot').map((m) => m.content as string);
      expect(notices).toHaveLength(2);
      expect(notices.some((c) => c.includes('is no longer using Zulip.'))).toBe(true);
      expect(notices.some((c) => c.includes("Not authorized to send to channel 'secret'"))).toBe(true);
    });

    it('fails without a notice when the sender was deactivated', async () => {
      await scheduled({ type: 'direct', to: [id('cordelia')], content: 'from beyond' });
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('hamlet')}`));
      await api.markEvents();
      await advance(301);
      const types = (await api.newEvents()).map((e) => e.type);
      expect(types).toEqual(['ScheduledMessageDeliveryFailed']);
      expect((await api.newEvents())[0].data).toMatchObject({ failureMessage: 'Account is deactivated', notifySender: false });
    });

    it('fails a delivery later than 10 minutes after its time', async () => {
      await scheduled({ content: 'stale' });
      api.clock.advance(301_000 + 11 * 60_000);
      await (await scheduler()).runDue();
      expect((await list())[0]).toMatchObject({ failed: true });
      const [notice] = (await messagesOf('hamlet')).slice(-1);
      expect(notice.content).toContain('<blockquote>\n<p>Message could not be sent at the scheduled time.</p>\n</blockquote>');
    });

    it('survives a restart: the boot re-arm schedules what is pending', async () => {
      const scheduledId = await scheduled({ content: 'after restart' });
      await (await scheduler()).cancel(`scheduled_message-${scheduledId}-at-${now() + 300}`);
      expect(await (await scheduler()).pendingJobIds()).toEqual([]);
      expect(await api.background.get(ScheduledDeliveries).rearm()).toBe(1);
      await advance(301);
      expect((await messagesOf('cordelia')).filter((m) => m.content === '<p>after restart</p>')).toHaveLength(1);
    });
  });
});
