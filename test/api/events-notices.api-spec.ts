import { ClientEventMappers } from '@app/application';
import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * Messages reach the event queues of their recipients whoever sent them: Notification Bot is
 * subscribed to no channel, and its notices in private channels (a report, the notices of a
 * move) were dropped by the `message` mapper, which checked the message against the sender's
 * access ("client event mapper failed", "Invalid message(s)"). Also: what a move between
 * channels sends (zerver/actions/message_edit.py do_update_message).
 */
describe('live events of Notification Bot messages and channel moves', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'shiva'] })));
  afterEach(() => api.close());

  const { id, queue, events, createChannel: createAs } = personaHelpers(() => api);
  const createChannel = (name: string, members: string[], options: { private?: boolean } = {}) =>
    createAs('iago', name, { principals: members.map(id), invite_only: options.private === true });
  const register = (who: string, eventTypes: string[] = ['message']) => queue(who, eventTypes);
  const send = async (who: string, channelId: number, topic: string, content: string) =>
    expectSuccess(await api.as(who).post('/api/v1/messages', { type: 'stream', to: channelId, topic, content })).id as number;
  const newest = async (who: string, channelId: number) => {
    const { messages } = expectSuccess(await api.as(who).get('/api/v1/messages', {
      anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: channelId }]),
    }));
    return messages[0] as { id: number; sender_full_name: string; content: string };
  };

  it("a report posted in a private moderation channel reaches its subscribers' queues", async () => {
    const moderation = await createChannel('reported messages', ['iago', 'hamlet'], { private: true });
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { moderation_request_channel_id: moderation }));
    const general = await createChannel('general', ['iago', 'hamlet', 'cordelia']);
    const reported = await send('cordelia', general, 'lunch', 'rude words');
    const iagoQueue = await register('iago');
    const hamletQueue = await register('hamlet');
    expectSuccess(await api.as('cordelia').post(`/api/v1/messages/${reported}/report`, { report_type: 'spam' }));

    const notice = await newest('iago', moderation);
    expect(notice.sender_full_name).toBe('Notification Bot');
    for (const [who, queue] of [['iago', iagoQueue], ['hamlet', hamletQueue]]) {
      const received = (await events(who, queue)).filter((e) => e.type === 'message');
      expect(received.map((e) => e.message.id)).toEqual([notice.id]);
      expect(received[0].message).toMatchObject({ id: notice.id, stream_id: moderation, sender_full_name: 'Notification Bot', content: notice.content });
      expect(received[0].flags).toEqual([]);
    }
  });

  it('the notices of a move between private channels reach the subscribers of each', async () => {
    const from = await createChannel('old private', ['iago', 'hamlet', 'cordelia'], { private: true });
    const to = await createChannel('new private', ['iago', 'hamlet', 'shiva'], { private: true });
    const messageId = await send('hamlet', from, 'plans', 'the plan');
    const queues = { iago: await register('iago'), cordelia: await register('cordelia'), shiva: await register('shiva') };
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${messageId}`, { stream_id: to, propagate_mode: 'change_all', send_notification_to_old_thread: true }));

    const movedHere = await newest('shiva', to);
    const movedAway = await newest('cordelia', from);
    expect(movedHere.content).toContain('moved here from');
    expect(movedAway.content).toContain('moved to');
    const messageIds = async (who: keyof typeof queues) => (await events(who, queues[who])).filter((e) => e.type === 'message').map((e) => e.message.id).sort();
    expect(await messageIds('shiva')).toEqual([movedHere.id]);
    expect(await messageIds('cordelia')).toEqual([movedAway.id]);
    expect(await messageIds('iago')).toEqual([movedAway.id, movedHere.id].sort());
  });

  it('a message reaches its recipients when its sender lost access before it was mapped (the read models ran ahead)', async () => {
    const secret = await createChannel('secret', ['iago', 'hamlet', 'cordelia'], { private: true });
    const queue = await register('cordelia');
    // Hold the reactor on an earlier event while the send and the sender's unsubscription are projected.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    api.app.get(ClientEventMappers).register('UserStatusChanged', async () => (await gate, []));
    expectSuccess(await api.as('iago').post('/api/v1/users/me/status', { status_text: 'busy' }));
    const messageId = await send('hamlet', secret, 'plans', 'for your eyes only');
    expectSuccess(await api.as('hamlet').delete('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify(['secret']) }));
    release();
    const received = (await events('cordelia', queue)).filter((e) => e.type === 'message');
    expect(received.map((e) => e.message.id)).toEqual([messageId]);
  });

  it('a move to another channel keeping the topic sends orig_subject, not subject or topic_links (as Zulip)', async () => {
    const from = await createChannel('Verona', ['iago', 'hamlet', 'cordelia']);
    const to = await createChannel('Padua', ['iago', 'hamlet', 'cordelia']);
    const messageId = await send('hamlet', from, 'travelling', 'text');
    const queue = await register('cordelia', ['update_message']);
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${messageId}`, { stream_id: to, propagate_mode: 'change_all', send_notification_to_new_thread: false }));
    const [event] = await events('cordelia', queue);
    expect(Object.keys(event).sort()).toEqual(
      ['id', 'type', 'user_id', 'edit_timestamp', 'message_id', 'message_ids', 'rendering_only', 'flags', 'stream_id', 'stream_name', 'propagate_mode', 'new_stream_id', 'orig_subject'].sort(),
    );
    expect(event).toMatchObject({ type: 'update_message', message_id: messageId, stream_id: from, stream_name: 'Verona', new_stream_id: to, propagate_mode: 'change_all', orig_subject: 'travelling' });
  });
});
