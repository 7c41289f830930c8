import { randomUUID } from 'node:crypto';
import { ID_ALLOCATOR, type IdAllocatorPort, rawEventStore, USER_MESSAGE_STORE, type UserMessageStorePort } from '@app/application';
import { messageFlagsStream } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * Personal flags and read state through the whole app (≈ zerver/tests/test_message_flags.py):
 * POST /messages/flags/narrow, /messages/flags, /mark_topic_as_read, /mark_stream_as_read,
 * /mark_all_as_read, and /register's unread_msgs.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';
const NARROW = '/api/v1/messages/flags/narrow';
const FLAGS = '/api/v1/messages/flags';
const NEWEST = 10_000_000_000_000_000;

describe('message flags', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, send, createChannel: createAs } = personaHelpers(() => api);
  const createChannel = (who: string, name: string, options: Record<string, unknown> = {}) => createAs(who, name, options, { lookUpAs: 'iago' });
  const toChannel = (who: string, to: string, topic: string, content: string) => send(who, { type: 'stream', to, topic, content, read_by_sender: true });
  const flagsOf = async (who: string, messageId: number): Promise<string[]> =>
    expectSuccess(await api.as(who).get(`${MESSAGES}/${messageId}`)).message.flags;
  const unreadIds = async (who: string, narrow: unknown[] = []): Promise<number[]> => {
    const body = expectSuccess(await api.as(who).get(MESSAGES, { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [...narrow, { operator: 'is', operand: 'unread' }] }));
    return body.messages.map((m: { id: number }) => m.id);
  };
  const narrow = (who: string, params: Record<string, unknown>) => api.as(who).post(NARROW, { narrow: [], op: 'add', flag: 'read', ...params });
  const unreadMsgs = async (who: string) =>
    expectSuccess(await api.as(who).post('/api/v1/register', { fetch_event_types: ['message', 'update_message_flags'] })).unread_msgs;

  describe('POST /messages/flags/narrow', () => {
    let m: number[];
    let denmark: number;
    beforeEach(async () => {
      denmark = await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      m = [];
      for (let i = 0; i < 6; i++) m.push(await toChannel('hamlet', 'Denmark', i < 3 ? 'one' : 'two', `message ${i}`));
    });

    it('marks a range read and reports counts, ids and booleans', async () => {
      const body = expectSuccess(await narrow('cordelia', { anchor: String(m[1]), num_before: 1, num_after: 2 }));
      expect(body).toEqual({
        result: 'success', msg: '',
        processed_count: 4, updated_count: 4, first_processed_id: m[0], last_processed_id: m[3],
        // post_process_limited_query: exactly num_before rows were found below the anchor, so the oldest is not known to be reached.
        found_oldest: false, found_newest: false,
      });
      expect(await unreadIds('cordelia')).toEqual(m.slice(4));
      // Again: processed, nothing changes.
      expect(expectSuccess(await narrow('cordelia', { anchor: String(m[1]), num_before: 1, num_after: 2 }))).toMatchObject({ processed_count: 4, updated_count: 0 });
    });

    it('answers an empty range with nulls', async () => {
      const body = expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'topic', operand: 'nothing here' }] }));
      expect(body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
      expect(body).not.toHaveProperty('ignored_because_not_subscribed_channels');
    });

    it('one-sided ranges: newest, oldest and an excluded anchor at an end', async () => {
      expect(expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 2, num_after: 0 }))).toMatchObject({
        processed_count: 2, first_processed_id: m[4], last_processed_id: m[5], found_oldest: false, found_newest: true,
      });
      expect(expectSuccess(await narrow('cordelia', { anchor: 'oldest', num_before: 0, num_after: 2 }))).toMatchObject({
        processed_count: 2, first_processed_id: m[0], last_processed_id: m[1], found_oldest: true, found_newest: false,
      });
      expect(expectSuccess(await narrow('cordelia', { anchor: String(m[2]), include_anchor: false, num_before: 0, num_after: 10 }))).toMatchObject({
        processed_count: 3, updated_count: 1, first_processed_id: m[3], last_processed_id: m[5], found_newest: true,
      });
      expect(await unreadIds('cordelia')).toEqual([m[2]]);
    });

    it('first_unread starts at the oldest unread message of the narrow', async () => {
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [m[0], m[1]], op: 'add', flag: 'read' }));
      expect(expectSuccess(await narrow('cordelia', { anchor: 'first_unread', num_before: 0, num_after: 1 }))).toMatchObject({
        processed_count: 2, updated_count: 2, first_processed_id: m[2], last_processed_id: m[3],
      });
      // Nothing unread left in topic "one": the anchor is the newest message.
      expect(expectSuccess(await narrow('cordelia', { anchor: 'first_unread', num_before: 1, num_after: 5, narrow: [{ operator: 'topic', operand: 'one' }] }))).toMatchObject({
        processed_count: 1, first_processed_id: m[2], found_newest: true,
      });
    });

    it('is:unread is a narrow like any other, and stars are flags too', async () => {
      expect(expectSuccess(await narrow('cordelia', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator: 'is', operand: 'unread' }, { operator: 'topic', operand: 'two' }] }))).toMatchObject({
        processed_count: 3, updated_count: 3, found_oldest: true, found_newest: true,
      });
      expect(await unreadIds('cordelia')).toEqual(m.slice(0, 3));
      expectSuccess(await narrow('cordelia', { anchor: String(m[0]), num_before: 0, num_after: 0, flag: 'starred' }));
      expect(await flagsOf('cordelia', m[0])).toEqual(['starred']);
      expect(expectSuccess(await narrow('cordelia', { anchor: String(m[0]), num_before: 0, num_after: 0, flag: 'starred', op: 'remove' }))).toMatchObject({ updated_count: 1 });
      expect(await flagsOf('cordelia', m[0])).toEqual([]);
    });

    it('marking unread skips channels the user is not subscribed to, and names them', async () => {
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_all_as_read'));
      const other = await createChannel('hamlet', 'Elsinore', { principals: [id('hamlet'), id('cordelia')] });
      const e = await toChannel('hamlet', 'Elsinore', 'x', 'hi');
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [e], op: 'add', flag: 'read' }));
      expectSuccess(await api.as('cordelia').delete(SUBSCRIPTIONS, { subscriptions: ['Elsinore'] }));
      const body = expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 100, num_after: 0, op: 'remove' }));
      expect(body).toMatchObject({ processed_count: 7, updated_count: 6, ignored_because_not_subscribed_channels: [other] });
      expect(await unreadIds('cordelia')).toEqual(m);
      expect(denmark).toBeGreaterThan(0);
    });

    it('clamps num_before and num_after (Zulip keeps at least 1,000 on the smaller side)', async () => {
      // 10 messages exist; the clamp itself is unit-tested (clampFlagRange, libs/domain/src/messages/message-flags.rules.spec.ts); here a huge request answers normally.
      expect(expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 100_000, num_after: 0 }))).toMatchObject({ processed_count: 6, found_oldest: true, found_newest: true });
      expect(expectSuccess(await narrow('cordelia', { anchor: String(m[2]), num_before: 50_000, num_after: 50_000 }))).toMatchObject({ processed_count: 6, found_oldest: true, found_newest: true });
    });

    it.each([
      [{ anchor: String(1), num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
      [{ anchor: 'latest', num_before: 1, num_after: 0 }, 'Invalid anchor'],
      [{ anchor: 'newest', num_before: 1, num_after: 0, flag: 'mentioned' }, "Flag not editable: 'mentioned'"],
      [{ anchor: 'newest', num_before: 1, num_after: 0, flag: 'historical' }, "Flag not editable: 'historical'"],
      [{ anchor: 'newest', num_before: 1, num_after: 0, flag: 'bogus' }, "Invalid flag: 'bogus'"],
      [{ anchor: 'newest', num_before: 1, num_after: 0, flag: 'is_private' }, "Invalid flag: 'is_private'"],
      [{ anchor: 'newest', num_before: 1, num_after: 0, op: 'toggle' }, "Invalid message flag operation: 'toggle'"],
      [{ anchor: 'newest', num_before: -1, num_after: 0 }, 'num_before is too small'],
    ])('refuses %j with "%s"', async (params, msg) => expectError(await narrow('cordelia', params), msg));

    it('requires anchor, num_before, num_after, narrow, op and flag', async () => {
      const all = { anchor: 'newest', num_before: 1, num_after: 0, narrow: [], op: 'add', flag: 'read' };
      for (const missing of Object.keys(all)) {
        const params: Record<string, unknown> = { ...all };
        delete params[missing];
        expectError(await api.as('cordelia').post(NARROW, params), `Missing '${missing}' argument`);
      }
    });

    it('refuses invalid narrows with BAD_NARROW', async () => {
      const body = expectError(await narrow('cordelia', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'Nowhere' }] }), 'Invalid narrow operator: unknown channel Nowhere');
      expect(body.code).toBe('BAD_NARROW');
      const unknown = await narrow('cordelia', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'bogus', operand: 'x' }] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe('BAD_NARROW');
    });

    it('accepts narrow=null as everything', async () => {
      expect(expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 100, num_after: 0, narrow: null }))).toMatchObject({ processed_count: 6 });
    });
  });

  describe('clamped ranges (more than 5,000 messages)', () => {
    let first: number;
    const COUNT = 6500;
    beforeEach(async () => {
      const streamId = await createChannel('hamlet', 'Crowd', { principals: [id('hamlet'), id('cordelia')] });
      // Seeded into the message index as the projection writes it (6,500 sends would take minutes).
      first = await api.app.get<IdAllocatorPort>(ID_ALLOCATOR).nextBlock('message', COUNT);
      const realmId = api.realmId;
      const rows = [{ userId: id('cordelia'), flags: 0 }];
      await api.app.get<UserMessageStorePort>(USER_MESSAGE_STORE).apply(
        [{ position: 1n, changes: Array.from({ length: COUNT }, (_, i) => ({
          type: 'message-added' as const, rows,
          message: { id: first + i, realmId, senderId: id('hamlet'), streamId, topic: 'crowd', dmKey: null, hasLink: false, hasImage: false, hasAttachment: false, searchText: 'x' },
        })) }],
        { name: 'test_seed', position: 1n },
      );
    });

    it('processes at most 5,000 before the newest message', async () => {
      expect(expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 6000, num_after: 0 }))).toMatchObject({
        processed_count: 5000, updated_count: 5000, first_processed_id: first + COUNT - 5000, last_processed_id: first + COUNT - 1, found_oldest: false, found_newest: true,
      });
      expect((await unreadMsgs('cordelia')).count).toBe(COUNT - 5000);
    });

    it('gives way on num_before first: 1,000 before, the anchor, 4,000 after', async () => {
      const anchor = first + 1500;
      expect(expectSuccess(await narrow('cordelia', { anchor: String(anchor), num_before: 5000, num_after: 5000 }))).toMatchObject({
        processed_count: 5001, updated_count: 5001, first_processed_id: anchor - 1000, last_processed_id: anchor + 4000, found_oldest: false, found_newest: false,
      });
    });

    it('marks unread from the oldest, and a channel of 6,500 read in one request', async () => {
      expect(expectSuccess(await narrow('cordelia', { anchor: 'oldest', num_before: 0, num_after: 100_000, narrow: [{ operator: 'is', operand: 'unread' }] }))).toMatchObject({
        processed_count: 5000, first_processed_id: first, found_oldest: true, found_newest: false,
      });
      const streamId = (await unreadMsgs('cordelia')).streams[0].stream_id;
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: streamId }));
      expect((await unreadMsgs('cordelia')).count).toBe(0);
    });
  });

  describe('historical rows (create_historical_user_messages)', () => {
    let denmark: number;
    let before: number[];
    beforeEach(async () => {
      // A public channel with shared history; cordelia is not subscribed when these are sent.
      denmark = await createChannel('hamlet', 'Denmark');
      before = [await toChannel('hamlet', 'Denmark', 't', 'one'), await toChannel('hamlet', 'Denmark', 't', 'two')];
    });
    const starredIds = async (who: string) =>
      expectSuccess(await api.as(who).get(MESSAGES, { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'starred' }] })).messages.map((m: { id: number }) => m.id);
    const store = () => api.app.get<UserMessageStorePort>(USER_MESSAGE_STORE);

    it('starring a public message the user never received creates a read, historical row', async () => {
      expect(expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [before[0]], op: 'add', flag: 'starred' }))).toMatchObject({ messages: [before[0]] });
      expect(await flagsOf('cordelia', before[0])).toEqual(['read', 'starred', 'historical']);
      expect(await starredIds('cordelia')).toEqual([before[0]]);
      expect((await store().flagsFor(id('cordelia'), before)).size).toBe(1);
      // Unstarring keeps the row, as Zulip does.
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [before[0]], op: 'remove', flag: 'starred' }));
      expect(await flagsOf('cordelia', before[0])).toEqual(['read', 'historical']);
      expect(await starredIds('cordelia')).toEqual([]);
    });

    it('marking read a message without a row creates nothing (read | historical is what it already counts as)', async () => {
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: before, op: 'add', flag: 'read' }));
      expect((await store().flagsFor(id('cordelia'), before)).size).toBe(0);
    });

    it('marking unread: skipped while not subscribed, a historical unread row once subscribed', async () => {
      expect(expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [before[1]], op: 'remove', flag: 'read' }))).toMatchObject({
        messages: [], ignored_because_not_subscribed_channels: [denmark],
      });
      expect((await store().flagsFor(id('cordelia'), before)).size).toBe(0);
      expectSuccess(await api.as('cordelia').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }] }));
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [before[1]], op: 'remove', flag: 'read' }));
      expect(await flagsOf('cordelia', before[1])).toEqual(['historical']);
      expect(await unreadMsgs('cordelia')).toMatchObject({ count: 1, streams: [{ stream_id: denmark, topic: 't', unread_message_ids: [before[1]] }] });
      expect(await unreadIds('cordelia')).toEqual([before[1]]);
    });

    it('stars a channel\'s history through the narrow endpoint, counting the new rows', async () => {
      const body = expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'Denmark' }], flag: 'starred' }));
      expect(body).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: before[0], last_processed_id: before[1] });
      expect(await starredIds('cordelia')).toEqual(before);
      expect(expectSuccess(await narrow('cordelia', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'Denmark' }], flag: 'starred' }))).toMatchObject({ updated_count: 0 });
    });

    it('still refuses messages of history the user may not read', async () => {
      await createChannel('hamlet', 'Protected', { invite_only: true, history_public_to_subscribers: false });
      const hidden = await toChannel('hamlet', 'Protected', 't', 'before cordelia');
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Protected' }], principals: [id('cordelia')] }));
      expectError(await api.as('cordelia').post(FLAGS, { messages: [before[0], hidden], op: 'add', flag: 'starred' }), 'Invalid message(s)');
      expect((await store().flagsFor(id('cordelia'), [before[0], hidden])).size).toBe(0);
      expectError(await api.as('polonius').post(FLAGS, { messages: [before[0]], op: 'add', flag: 'starred' }), 'Invalid message(s)');
    });
  });

  describe('POST /messages/flags', () => {
    it('changes the listed messages and echoes them', async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      const a = await toChannel('hamlet', 'Denmark', 't', 'a');
      const b = await toChannel('hamlet', 'Denmark', 't', 'b');
      expect(expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [b, a], op: 'add', flag: 'starred' }))).toEqual({ result: 'success', msg: '', messages: [b, a] });
      expect(await flagsOf('cordelia', a)).toEqual(['starred']);
      expect(expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [a], op: 'remove', flag: 'read' }))).toEqual({
        result: 'success', msg: '', messages: [a], ignored_because_not_subscribed_channels: [],
      });
    });

    it('refuses messages the user cannot access', async () => {
      await createChannel('hamlet', 'Secret', { principals: [id('hamlet')], invite_only: true });
      const secret = await toChannel('hamlet', 'Secret', 't', 'hush');
      const dm = await send('hamlet', { type: 'direct', to: JSON.stringify([id('iago')]), content: 'psst' });
      for (const messages of [[secret], [dm], [999_999]]) {
        expectError(await api.as('cordelia').post(FLAGS, { messages, op: 'add', flag: 'starred' }), 'Invalid message(s)');
      }
    });

    it('marking read or unstarring a message without a row changes nothing and checks nothing (do_update_message_flags)', async () => {
      await createChannel('hamlet', 'Secret', { principals: [id('hamlet')], invite_only: true });
      const secret = await toChannel('hamlet', 'Secret', 't', 'hush');
      for (const [op, flag] of [['add', 'read'], ['remove', 'starred'], ['remove', 'collapsed']]) {
        expect(expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [secret, 999_999], op, flag }))).toMatchObject({ messages: [secret, 999_999] });
      }
    });

    it('refuses non-editable flags and unknown operations', async () => {
      expectError(await api.as('cordelia').post(FLAGS, { messages: [], op: 'add', flag: 'mentioned' }), "Flag not editable: 'mentioned'");
      expectError(await api.as('cordelia').post(FLAGS, { messages: [], op: 'add', flag: 'nope' }), "Invalid flag: 'nope'");
      expectError(await api.as('cordelia').post(FLAGS, { messages: [], op: 'flip', flag: 'read' }), "Invalid message flag operation: 'flip'");
    });
  });

  describe('mark as read in bulk', () => {
    let denmark: number;
    let m: number[];
    beforeEach(async () => {
      denmark = await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      await createChannel('hamlet', 'Elsinore', { principals: [id('hamlet'), id('cordelia')] });
      m = [
        await toChannel('hamlet', 'Denmark', 'one', 'a'),
        await toChannel('hamlet', 'Denmark', 'One', 'b'),
        await toChannel('hamlet', 'Denmark', '', 'c'),
        await toChannel('hamlet', 'Elsinore', 'one', 'd'),
        await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'e' }),
      ];
    });

    it('mark_topic_as_read marks one topic (case-insensitively)', async () => {
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: denmark, topic_name: 'ONE' }));
      expect(await unreadIds('cordelia')).toEqual(m.slice(2));
    });

    it('mark_topic_as_read: the empty-topic display name is the empty topic', async () => {
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: denmark, topic_name: 'general chat' }));
      expect(await unreadIds('cordelia')).toEqual([m[0], m[1], m[3], m[4]]);
    });

    it('mark_topic_as_read refuses unknown topics and channels', async () => {
      expectError(await api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: denmark, topic_name: 'nope' }), "No such topic 'nope'");
      expectError(await api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: 99_999, topic_name: 'one' }), 'Invalid channel ID');
    });

    it('mark_stream_as_read marks one channel', async () => {
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: denmark }));
      expect(await unreadIds('cordelia')).toEqual(m.slice(3));
      expectError(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: 99_999 }), 'Invalid channel ID');
      expectError(await api.as('cordelia').post('/api/v1/mark_stream_as_read', {}), "Missing 'stream_id' argument");
    });

    it('mark_stream_as_read refuses a private channel the user cannot reach', async () => {
      const secret = await createChannel('hamlet', 'Secret', { principals: [id('hamlet')], invite_only: true });
      expectError(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: secret }), 'Invalid channel ID');
    });

    it('mark_all_as_read marks everything and answers complete', async () => {
      expect(expectSuccess(await api.as('cordelia').post('/api/v1/mark_all_as_read'))).toEqual({ result: 'success', msg: '', complete: true });
      expect(await unreadIds('cordelia')).toEqual([]);
    });

    it('unread_msgs groups what is unread, and follows every change', async () => {
      const before = await unreadMsgs('cordelia');
      expect(before).toEqual({
        pms: [{ other_user_id: id('hamlet'), sender_id: id('hamlet'), unread_message_ids: [m[4]] }],
        streams: [
          { stream_id: denmark, topic: '', unread_message_ids: [m[2]] },
          { stream_id: denmark, topic: 'one', unread_message_ids: [m[0], m[1]] },
          expect.objectContaining({ topic: 'one', unread_message_ids: [m[3]] }),
        ],
        huddles: [],
        mentions: [],
        count: 5,
        old_unreads_missing: false,
      });
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: denmark }));
      expect(await unreadMsgs('cordelia')).toMatchObject({ count: 2, streams: [expect.objectContaining({ unread_message_ids: [m[3]] })] });
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_all_as_read'));
      expect(await unreadMsgs('cordelia')).toMatchObject({ count: 0, pms: [], streams: [], huddles: [] });
    });

    it('their update_message_flags events name only the rows they changed; mark_all_as_read says all: true (zulip-terminal counts every listed id read)', async () => {
      const queueId = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['update_message_flags'] })).queue_id as string;
      const events = async () =>
        (expectSuccess(await api.as('cordelia').get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).events as Record<string, unknown>[]).map(
          ({ id: _id, ...e }) => e,
        );
      const read = (messages: number[], all = false) => ({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all });
      // Already read before the range selections: m[0] (topic one) and m[3] (Elsinore).
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [m[0], m[3]], op: 'add', flag: 'read' }));
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: denmark, topic_name: 'one' }));
      // Nothing left unread in the topic: no event (do_mark_stream_messages_as_read returns early).
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: denmark, topic_name: 'one' }));
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: denmark }));
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_all_as_read'));
      expect(await events()).toEqual([read([m[0], m[3]]), read([m[1]]), read([m[2]]), read([], true)]);
      expect(await unreadIds('cordelia')).toEqual([]);
    });

    it('a channel selection recorded before changedIds existed still maps: its event lists the read messages in the range', async () => {
      const cordelia = id('cordelia');
      expectSuccess(await api.as('cordelia').post(FLAGS, { messages: [m[0]], op: 'add', flag: 'read' }));
      await api.markEvents();
      expectSuccess(await api.as('cordelia').post('/api/v1/mark_stream_as_read', { stream_id: denmark }));
      const [recorded] = await api.newEvents();
      expect(recorded).toMatchObject({ type: 'MessageFlagsChanged', data: { changedIds: [m[1], m[2]] } });
      const queueId = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['update_message_flags'] })).queue_id as string;
      // The same change as an older server wrote it (no changedIds), appended verbatim.
      const { changedIds: _ids, ...older } = recorded.data as Record<string, unknown>;
      await rawEventStore(api.eventStore).appendToStream(
        messageFlagsStream(cordelia),
        [{ id: randomUUID(), type: 'MessageFlagsChanged', data: older, metadata: recorded.metadata }],
        { expectedRevision: 'any' },
      );
      // Long-polls until the reactor has mapped it (the rows it reads were projected by the real change).
      const body = expectSuccess(await api.as('cordelia').get('/api/v1/events', { queue_id: queueId, last_event_id: -1 }));
      expect(body.events).toMatchObject([{ type: 'update_message_flags', flag: 'read', messages: [m[0], m[1], m[2]], all: false }]);
    });

    it('unread_msgs needs both the message and update_message_flags fetch types', async () => {
      const only = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: ['update_message_flags'] }));
      expect(only).not.toHaveProperty('unread_msgs');
    });
  });
});
