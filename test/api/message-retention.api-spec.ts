import { CommandBus } from '@nestjs/cqrs';
import { LIVE_READ_MODELS, type LiveReadModels, MESSAGE_REACTIONS, READ_STORE, type ReadStorePort, type RetentionRunResult, RunMessageRetentionCommand } from '@app/application';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * The message retention job (≈ zerver/tests/test_retention.py): messages made old with the fake
 * clock, then RunMessageRetentionCommand as the timer of the process running scheduled jobs (the
 * worker in the split layout) runs it.
 */
const DAY_MS = 86_400_000;
const MESSAGES = '/api/v1/messages';

describe('message retention job', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => {
    jest.restoreAllMocks();
    return api.close();
  });

  const { id, sendToChannel, createChannel, queue, events } = personaHelpers(() => api);
  const run = (batchSize?: number): Promise<RetentionRunResult> => api.background.get(CommandBus).execute(new RunMessageRetentionCommand({ batchSize }));
  const setRealm = async (value: unknown) => expectSuccess(await api.as('desdemona').patch('/api/v1/realm', { message_retention_days: value }));
  const setChannel = async (streamId: number, value: unknown) => expectSuccess(await api.as('desdemona').patch(`/api/v1/streams/${streamId}`, { message_retention_days: value }));
  const channel = (name: string) => createChannel('hamlet', name, { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
  const dm = async (content: string) => expectSuccess(await api.as('hamlet').post(MESSAGES, { type: 'direct', to: JSON.stringify([id('cordelia')]), content })).id as number;
  /** Whether the message is still there for cordelia, who received all of them. */
  const kept = async (messageId: number) => (await api.as('cordelia').get(`${MESSAGES}/${messageId}`)).body.result === 'success';
  const keptOf = async (ids: Record<string, number>) => Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, v]) => [k, await kept(v)])));
  const days = (n: number) => api.clock.advance(n * DAY_MS);
  /** The message index behind the port the job reads (USER_MESSAGE_STORE is a proxy to the live copy). */
  const indexStore = () => api.background.get<LiveReadModels>(LIVE_READ_MODELS).userMessages.store;

  it('deletes what outlived its channel\'s retention, else the organization\'s; direct messages by the organization\'s; unlimited keeps all', async () => {
    const [denmark, verona, rome] = [await channel('Denmark'), await channel('Verona'), await channel('Rome')];
    const m: Record<string, number> = {};
    m.denmark0 = await sendToChannel('hamlet', 'Denmark', 'old', 'denmark-zero-text');
    m.verona0 = await sendToChannel('hamlet', 'Verona', 'old', 'v0');
    m.rome0 = await sendToChannel('hamlet', 'Rome', 'old', 'r0');
    m.dm0 = await dm('dm0');
    days(85);
    m.denmark85 = await sendToChannel('hamlet', 'Denmark', 'mid', 'd85');
    m.verona85 = await sendToChannel('hamlet', 'Verona', 'mid', 'v85');
    m.rome85 = await sendToChannel('hamlet', 'Rome', 'mid', 'r85');
    m.dm85 = await dm('dm85');
    days(12);
    m.denmark97 = await sendToChannel('hamlet', 'Denmark', 'new', 'd97');
    m.dm97 = await dm('dm97');
    days(3);
    // Now day 100: the organization keeps 30 days, Denmark 7, Rome forever, Verona the organization's.
    await setRealm(30);
    await setChannel(denmark, 7);
    await setChannel(rome, JSON.stringify('unlimited'));
    const cordeliaQueue = await queue('cordelia', ['message', 'delete_message', 'update_message']);
    await api.markEvents();

    const result = await run();

    expect(await keptOf(m)).toEqual({
      denmark0: false, denmark85: false, denmark97: true,
      verona0: false, verona85: true,
      rome0: true, rome85: true,
      dm0: false, dm85: true, dm97: true,
    });
    expect(result).toEqual({
      deleted: 4,
      realms: [{
        realmId: api.realmId, stringId: 'acme', deleted: 4, directMessages: 1,
        channels: [{ channelId: denmark, name: 'Denmark', deleted: 2 }, { channelId: verona, name: 'Verona', deleted: 1 }],
      }],
    });
    // Ordinary MessageDeleted events, with no actor and the retention job as the reason.
    const recorded = await api.newEvents();
    expect(recorded.map((e) => [e.type, (e.data as { messageId: number }).messageId]).sort()).toEqual(
      [m.denmark0, m.denmark85, m.verona0, m.dm0].map((messageId) => ['MessageDeleted', messageId]).sort(),
    );
    expect(recorded.every((e) => (e.data as { actorId: unknown; reason?: string }).actorId === null && (e.data as { reason?: string }).reason === 'retention')).toBe(true);
    // Zulip's archive_messages tells clients nothing.
    expect(await events('cordelia', cordeliaQueue)).toEqual([]);
    // The audit history lists the deletion, the job as its reason, and hides the text now.
    const { history } = expectSuccess(await api.as('desdemona').get('/api/v1/svc/history', { message_id: m.denmark0 }));
    const deletion = (history as { type: string; data: object }[]).find((e) => e.type === 'MessageDeleted');
    expect(deletion?.data).toMatchObject({ messageId: m.denmark0, reason: 'retention', actorId: null, topic: '[hidden]' });
    expect(JSON.stringify(history)).not.toContain('denmark-zero-text');
    // A second run finds nothing left to delete.
    await api.markEvents();
    expect(await run()).toEqual({ deleted: 0, realms: [] });
    expect(await api.newEvents()).toEqual([]);
  });

  it('with the organization\'s retention unlimited (the default), only channels with their own are cleaned', async () => {
    const denmark = await channel('Denmark');
    await channel('Verona');
    const old = { denmark: await sendToChannel('hamlet', 'Denmark', 't', 'a'), verona: await sendToChannel('hamlet', 'Verona', 't', 'b'), dm: await dm('c') };
    days(1000);
    expect(await run()).toEqual({ deleted: 0, realms: [] });
    await setChannel(denmark, 10);
    expect((await run()).deleted).toBe(1);
    expect(await keptOf(old)).toEqual({ denmark: false, verona: true, dm: true });
  });

  it('a deleted message is gone from every read: fetches, narrows, reactions, unread counts', async () => {
    const denmark = await channel('Denmark');
    const old = await sendToChannel('hamlet', 'Denmark', 'plans', 'an old plan');
    expectSuccess(await api.as('cordelia').post(`${MESSAGES}/${old}/reactions`, { emoji_name: 'octopus' }));
    const reactions = async () => (await api.background.get<ReadStorePort>(READ_STORE).get<{ reactions: unknown[] }>(MESSAGE_REACTIONS, String(old)))?.reactions ?? [];
    expect(await reactions()).toHaveLength(1);
    days(40);
    const fresh = await sendToChannel('hamlet', 'Denmark', 'plans', 'a fresh plan');
    await setChannel(denmark, 30);
    await run();
    expectError(await api.as('cordelia').get(`${MESSAGES}/${old}`), 'Invalid message(s)');
    expect(await reactions()).toEqual([]);
    const narrow = JSON.stringify([{ operator: 'channel', operand: denmark }]);
    const { messages } = expectSuccess(await api.as('cordelia').get(MESSAGES, { anchor: 'newest', num_before: 10, num_after: 0, narrow }));
    expect(messages.map((x: { id: number }) => x.id)).toEqual([fresh]);
    const searched = expectSuccess(await api.as('cordelia').get(MESSAGES, { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'plan' }]) }));
    expect(searched.messages.map((x: { id: number }) => x.id)).toEqual([fresh]);
    const state = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) }));
    expect(state.unread_msgs.streams.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids)).toEqual([fresh]);
  });

  it('follows where a message is now: moved out of a short-lived channel it stays, moved into one it goes', async () => {
    const [denmark] = [await channel('Denmark'), await channel('Rome')];
    const leaving = await sendToChannel('hamlet', 'Denmark', 'leaving', 'to Rome');
    const arriving = await sendToChannel('hamlet', 'Rome', 'arriving', 'to Denmark');
    const rome = await api.channelId('Rome');
    // No Notification Bot notices, whose own messages would count too.
    const quietly = { send_notification_to_new_thread: false, send_notification_to_old_thread: false };
    expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${leaving}`, { stream_id: rome, ...quietly }));
    expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${arriving}`, { stream_id: denmark, ...quietly }));
    days(20);
    await setChannel(denmark, 10);
    expect((await run()).realms[0].channels).toEqual([{ channelId: denmark, name: 'Denmark', deleted: 1 }]);
    expect(await keptOf({ leaving, arriving })).toEqual({ leaving: true, arriving: false });
  });

  it('deletes in bounded batches, each read from the index with the batch size', async () => {
    const denmark = await channel('Denmark');
    const old: number[] = [];
    for (let i = 0; i < 25; i++) old.push(await sendToChannel('hamlet', 'Denmark', 'bulk', `m${i}`));
    days(8);
    const recent = await sendToChannel('hamlet', 'Denmark', 'bulk', 'recent');
    await setChannel(denmark, 7);
    const reads = jest.spyOn(indexStore(), 'retentionCandidates');
    const result = await run(10);
    expect(result.deleted).toBe(25);
    // 10 + 10 + 5: three reads of Denmark's messages, none larger than a batch, each below the last batch.
    const calls = reads.mock.calls.map(([, of, maxId, limit]) => ({ of, maxId, limit }));
    expect(calls.map(({ of, limit }) => ({ of, limit }))).toEqual([1, 2, 3].map(() => ({ of: { streamId: denmark }, limit: 10 })));
    expect(calls[0].maxId).toBe(old[24]);
    expect(calls[1].maxId).toBe(old[15] - 1);
    expect(calls[2].maxId).toBe(old[5] - 1);
    expect(await kept(recent)).toBe(true);
    expect((await Promise.all(old.map(kept))).some(Boolean)).toBe(false);
  });

  it('a send while a run is between batches is answered before the run ends, and kept', async () => {
    const denmark = await channel('Denmark');
    for (let i = 0; i < 12; i++) await sendToChannel('hamlet', 'Denmark', 'bulk', `m${i}`);
    days(8);
    await setChannel(denmark, 7);
    // Hold the run at its second read until a send has been answered.
    const store = indexStore();
    const original = store.retentionCandidates.bind(store);
    let release!: () => void;
    const sent = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    jest.spyOn(store, 'retentionCandidates').mockImplementation(async (...args) => {
      if (++reads === 2) await sent;
      return original(...args);
    });
    let finished = false;
    const running = run(5).then((r) => ((finished = true), r));
    while (reads < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const during = await sendToChannel('cordelia', 'Denmark', 'bulk', 'sent during the run');
    expect(finished).toBe(false);
    release();
    expect((await running).deleted).toBe(12);
    expect(await kept(during)).toBe(true);
  });
});
