import { EVENT_STORE, type EventStorePort, StreamRevisionConflictError } from '@app/application';
import { PrometheusMetrics } from '@app/infrastructure';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';
import type { Response } from 'supertest';

/**
 * S5 (issue 12): concurrent writers on one stream never lose an update. Every burst below hits one
 * consistency boundary (a user's settings, drafts, mutes, subscription properties; the
 * organization's channel folders; a channel's messages; one message's edits) with parallel requests. Each request
 * either applies (and its effect is visible afterwards) or gets a clean 4xx error in the
 * envelope; none is a 5xx, and no acknowledged change is missing at the end.
 */
describe('concurrent writers', () => {
  let api: ApiTestClient;
  const BURST = 12;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['desdemona', 'iago', 'hamlet', 'cordelia', 'shiva', 'polonius'] })));
  afterAll(() => api.close());

  /** Every response a success or a clean client error in the envelope; returns the successes. */
  const clean = (responses: Response[]) => {
    for (const r of responses) {
      const ok = r.status === 200 && r.body.result === 'success';
      const refused = r.status >= 400 && r.status < 500 && r.body.result === 'error' && typeof r.body.code === 'string' && r.body.msg !== '';
      if (!ok && !refused) throw new Error(`unclean answer ${r.status} ${JSON.stringify(r.body)}`);
    }
    return responses.filter((r) => r.status === 200);
  };
  const { createChannel } = personaHelpers(() => api);
  const channel = (name: string, who = 'iago') => createChannel(who, name);

  it('settings: parallel changes of different settings all apply', async () => {
    const changes: Record<string, unknown>[] = [
      { color_scheme: 3 }, { emojiset: 'text' }, { twenty_four_hour_time: true }, { web_font_size_px: 18 }, { left_side_userlist: true },
      { notification_sound: 'ding' }, { enter_sends: true }, { starred_message_counts: false }, { fluid_layout_width: true },
      { high_contrast_mode: true }, { translate_emoticons: true },
    ];
    const responses = await Promise.all(changes.map((params) => api.as('hamlet').patch('/api/v1/settings', params)));
    expect(clean(responses)).toHaveLength(changes.length);
    const { user_settings } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: JSON.stringify(['user_settings']) }));
    expect(user_settings).toMatchObject(Object.assign({}, ...changes));
  });

  it('drafts: parallel creations all get distinct ids and are all kept', async () => {
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        api.as('hamlet').post('/api/v1/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: `draft ${i}` }]) }),
      ),
    );
    const ids = clean(responses).flatMap((r) => r.body.ids as number[]);
    expect(ids).toHaveLength(BURST);
    expect(new Set(ids).size).toBe(BURST);
    const { drafts } = expectSuccess(await api.as('hamlet').get('/api/v1/drafts'));
    expect(drafts.map((d: { content: string }) => d.content).sort()).toEqual(Array.from({ length: BURST }, (_, i) => `draft ${i}`).sort());
  });

  it('drafts: parallel edits of different drafts, and parallel deletions, all apply', async () => {
    const { drafts } = expectSuccess(await api.as('hamlet').get('/api/v1/drafts'));
    const ids: number[] = drafts.map((d: { id: number }) => d.id);
    const half = Math.floor(ids.length / 2);
    const responses = await Promise.all([
      ...ids.slice(0, half).map((id) => api.as('hamlet').patch(`/api/v1/drafts/${id}`, { draft: JSON.stringify({ type: '', to: [], topic: '', content: `edited ${id}` }) })),
      ...ids.slice(half).map((id) => api.as('hamlet').delete(`/api/v1/drafts/${id}`)),
    ]);
    expect(clean(responses)).toHaveLength(ids.length);
    const after = expectSuccess(await api.as('hamlet').get('/api/v1/drafts')).drafts;
    expect(after.map((d: { id: number; content: string }) => [d.id, d.content]).sort()).toEqual(ids.slice(0, half).map((id) => [id, `edited ${id}`]).sort());
  });

  it('channel folders: parallel creations with distinct names all apply; with one name exactly one wins', async () => {
    const distinct = await Promise.all(Array.from({ length: BURST }, (_, i) => api.as('iago').post('/api/v1/channel_folders/create', { name: `Folder ${i}`, description: '' })));
    expect(clean(distinct)).toHaveLength(BURST);
    const same = await Promise.all(Array.from({ length: BURST }, () => api.as('iago').post('/api/v1/channel_folders/create', { name: 'Contested', description: '' })));
    expect(clean(same)).toHaveLength(1);
    const { channel_folders } = expectSuccess(await api.as('hamlet').get('/api/v1/channel_folders'));
    const names: string[] = channel_folders.map((f: { name: string }) => f.name);
    expect(names.filter((n) => n === 'Contested')).toHaveLength(1);
    for (let i = 0; i < BURST; i++) expect(names).toContain(`Folder ${i}`);
    const ids = new Set(channel_folders.map((f: { id: number }) => f.id));
    expect(ids.size).toBe(channel_folders.length);
  });

  it('subscription properties: parallel changes to one subscription all apply', async () => {
    const streamId = await channel('concurrent properties', 'hamlet');
    const changes: [string, unknown][] = [
      ['color', '#123456'], ['pin_to_top', true], ['desktop_notifications', true], ['audible_notifications', false], ['push_notifications', true],
      ['email_notifications', false], ['wildcard_mentions_notify', true], ['is_muted', true],
    ];
    const responses = await Promise.all(
      changes.map(([property, value]) =>
        api.as('hamlet').post('/api/v1/users/me/subscriptions/properties', { subscription_data: JSON.stringify([{ stream_id: streamId, property, value }]) }),
      ),
    );
    expect(clean(responses)).toHaveLength(changes.length);
    const { subscriptions } = expectSuccess(await api.as('hamlet').get('/api/v1/users/me/subscriptions'));
    expect(subscriptions.find((s: { stream_id: number }) => s.stream_id === streamId)).toMatchObject(Object.fromEntries(changes));
  });

  it('muted users: parallel mutes of different users all apply', async () => {
    const others = ['desdemona', 'iago', 'cordelia', 'shiva', 'polonius'].map((n) => api.user(n).userId);
    expect(clean(await Promise.all(others.map((id) => api.as('hamlet').post(`/api/v1/users/me/muted_users/${id}`))))).toHaveLength(others.length);
    const { muted_users } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: JSON.stringify(['muted_users']) }));
    expect(muted_users.map((m: { id: number }) => m.id).sort()).toEqual([...others].sort());
  });

  it('messages: parallel sends to one channel topic all land once, with distinct increasing ids', async () => {
    await channel('concurrent sends');
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) => api.as(i % 2 ? 'iago' : 'hamlet').post('/api/v1/messages', { type: 'stream', to: 'concurrent sends', topic: 't', content: `m${i}` })),
    );
    const ids = clean(responses).map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(BURST);
    const { messages } = expectSuccess(
      await api.as('iago').get('/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: 'concurrent sends' }]) }),
    );
    expect(messages.map((m: { id: number }) => m.id).sort((a: number, b: number) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(messages.map((m: { content: string }) => m.content.replace(/<\/?p>/g, '')).sort()).toEqual(Array.from({ length: BURST }, (_, i) => `m${i}`).sort());
  });

  it('message flags: parallel stars of different messages all apply', async () => {
    const { messages } = expectSuccess(
      await api.as('hamlet').get('/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: 'concurrent sends' }]) }),
    );
    const ids: number[] = messages.map((m: { id: number }) => m.id);
    const responses = await Promise.all(ids.map((id) => api.as('hamlet').post('/api/v1/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' })));
    expect(clean(responses)).toHaveLength(ids.length);
    const starred = expectSuccess(await api.as('hamlet').get('/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'starred' }]) }));
    expect(starred.messages.map((m: { id: number }) => m.id).sort()).toEqual([...ids].sort());
  });

  it('message edits: parallel edits of one message each apply or are refused cleanly; the history holds every applied one', async () => {
    const id = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'concurrent sends', topic: 'edits', content: 'original' })).id as number;
    const versions = Array.from({ length: 8 }, (_, i) => `version ${i}`);
    const applied = clean(await Promise.all(versions.map((content) => api.as('hamlet').patch(`/api/v1/messages/${id}`, { content }))));
    expect(applied.length).toBeGreaterThanOrEqual(1);
    const { raw_content, message } = expectSuccess(await api.as('hamlet').get(`/api/v1/messages/${id}`));
    expect(versions).toContain(raw_content);
    // Every applied edit is one step of the history: nothing overwritten without a trace.
    expect(message.edit_history).toHaveLength(applied.length);
    const previous = message.edit_history.map((h: { prev_content: string }) => h.prev_content);
    expect(previous).toContain('original');
    expect(new Set([...previous, raw_content]).size).toBe(applied.length + 1);
  });

  it('organization settings: parallel changes of different settings all apply', async () => {
    const changes: Record<string, unknown>[] = [
      { name: 'Acme Concurrent' }, { description: 'Changed in parallel' }, { message_content_edit_limit_seconds: 1234 },
      { topics_policy: 'disable_empty_topic' }, { allow_message_editing: true },
    ];
    expect(clean(await Promise.all(changes.map((params) => api.as('iago').patch('/api/v1/realm', params))))).toHaveLength(changes.length);
    const state = expectSuccess(await api.as('iago').post('/api/v1/register', { fetch_event_types: JSON.stringify(['realm']) }));
    expect(state).toMatchObject({
      realm_name: 'Acme Concurrent', realm_description: 'Changed in parallel', realm_message_content_edit_limit_seconds: 1234,
      realm_topics_policy: 'disable_empty_topic', realm_allow_message_editing: true,
    });
  });

  it('channel settings: parallel changes of one channel\'s different properties all apply', async () => {
    const streamId = await channel('concurrent channel settings');
    const changes: Record<string, unknown>[] = [{ description: 'parallel' }, { new_name: 'renamed in parallel' }, { message_retention_days: '"unlimited"' }];
    // message_retention_days is for owners only.
    const applied = clean(await Promise.all(changes.map((params) => api.as('desdemona').patch(`/api/v1/streams/${streamId}`, params))));
    expect(applied).toHaveLength(changes.length);
    const { stream } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${streamId}`));
    expect(stream).toMatchObject({ description: 'parallel', name: 'renamed in parallel', message_retention_days: -1 });
  });

  it('scheduled messages: parallel schedules all get distinct ids and are all pending', async () => {
    const streamId = await channel('concurrent schedules', 'hamlet');
    const at = Math.floor(api.clock.now().getTime() / 1000) + 3600;
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'stream', to: streamId, topic: 'later', content: `scheduled ${i}`, scheduled_delivery_timestamp: at }),
      ),
    );
    const ids = clean(responses).map((r) => r.body.scheduled_message_id as number);
    expect(new Set(ids).size).toBe(BURST);
    const { scheduled_messages } = expectSuccess(await api.as('hamlet').get('/api/v1/scheduled_messages'));
    expect(scheduled_messages.filter((m: { content: string }) => m.content.startsWith('scheduled ')).map((m: { scheduled_message_id: number }) => m.scheduled_message_id).sort()).toEqual([...ids].sort());
  });

  it('subscriptions: parallel joins of different channels by one user all apply', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `joined in parallel ${i}`);
    const responses = await Promise.all(names.map((name) => api.as('cordelia').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] })));
    expect(clean(responses)).toHaveLength(names.length);
    const { subscriptions } = expectSuccess(await api.as('cordelia').get('/api/v1/users/me/subscriptions'));
    for (const name of names) expect(subscriptions.map((s: { name: string }) => s.name)).toContain(name);
  });
});

/**
 * Issue 38: ordinary concurrent use never fails. Each burst below is N people (or an
 * administrator's script) doing one contended operation at once, every request valid: every
 * answer is a 200 (writers of one stream take their turn; in the split layout the personas are
 * spread over two API applications, which retry one another's appends), and the state afterwards
 * is what all of them together make. Where the requests compete for one name, exactly one wins and
 * the others get Zulip's usual error for that name, never CONCURRENT_MODIFICATION.
 *
 * Every stream read here takes a few milliseconds more, as it does over a network (EventStoreDB)
 * or on a loaded machine: the embedded store reads so fast that requests seldom overlap between a
 * command's read and its append, and the bursts would pass without taking turns at all.
 */
describe('contended operations (issue 38): every writer succeeds', () => {
  let api: ApiTestClient;
  const N = 16;
  const people = Array.from({ length: N }, (_, i) => `person${i}`);
  const slowReads = (store: EventStorePort) => {
    const read = store.readStream.bind(store);
    store.readStream = async (streamId, options) => {
      const result = await read(streamId, options);
      await new Promise((resolve) => setTimeout(resolve, 3));
      return result;
    };
  };
  beforeAll(async () => {
    api = await ApiTestClient.start();
    for (const app of api.apps) slowReads(app.get<EventStorePort>(EVENT_STORE));
  });
  afterAll(() => api.close());

  const allOk = (responses: Response[]) => {
    const failed = responses.filter((r) => r.status !== 200 || r.body.result !== 'success');
    expect(failed.map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    return responses.map((r) => r.body as Record<string, any>);
  };
  const byUser = async () => {
    const { members } = expectSuccess(await api.as('iago').get('/api/v1/users'));
    return members as { user_id: number; email: string; full_name: string }[];
  };

  it('user creation: an administrator creating 16 users at once creates each exactly once', async () => {
    const created = allOk(
      await Promise.all(people.map((p) => api.as('iago').post('/api/v1/users', { email: `${p}@acme.test`, password: `${p}-password`, full_name: `Person ${p}` }))),
    );
    const ids = created.map((b) => b.user_id as number);
    expect(new Set(ids).size).toBe(N);
    const members = await byUser();
    for (const p of people) expect(members.filter((m) => m.email === `${p}@acme.test`)).toHaveLength(1);
    // Log each in (their credentials alternate between the API applications of the split layout).
    for (const p of people) {
      const { api_key, user_id } = expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: `${p}@acme.test`, password: `${p}-password` }));
      api.credentials.set(p, { userId: user_id, email: `${p}@acme.test`, apiKey: api_key });
    }
  });

  it('user creation: 8 creations of the SAME email at once: exactly one wins, the others get "already in use"', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.as(i % 2 ? 'iago' : 'desdemona').post('/api/v1/users', { email: 'contested@acme.test', password: 'long-enough', full_name: `Contested ${i}` })),
    );
    const won = responses.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 200)) {
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: "Email 'contested@acme.test' already in use" } });
    }
    expect((await byUser()).filter((m) => m.email === 'contested@acme.test')).toHaveLength(1);
  });

  it('name change: 16 users renaming themselves 6 times each at once: every rename applied, in some order', async () => {
    await api.markEvents();
    const names = (p: string) => [1, 2, 3, 4, 5, 6].map((k) => `${p} renamed ${k}`);
    allOk(await Promise.all(people.flatMap((p) => names(p).map((full_name) => api.as(p).patch('/api/v1/settings', { full_name })))));
    const events = (await api.newEvents()).filter((e) => e.type === 'UserFullNameChanged');
    const members = await byUser();
    for (const p of people) {
      const { userId } = api.user(p);
      const mine = events.filter((e) => e.data.userId === userId).map((e) => e.data as { oldName: string; newName: string });
      // Each of the six applied once, each on top of the one before: no lost update.
      expect(mine.map((e) => e.newName).sort()).toEqual(names(p));
      mine.forEach((e, i) => expect(e.oldName).toBe(i === 0 ? `Person ${p}` : mine[i - 1].newName));
      expect(members.find((m) => m.user_id === userId)?.full_name).toBe(mine[5].newName);
    }
  });

  it('channel creation: 16 users creating a channel each at once: every channel created', async () => {
    allOk(await Promise.all(people.map((p) => api.as(p).post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: `${p}'s channel` }] }))));
    const { streams } = expectSuccess(await api.as('iago').get('/api/v1/streams'));
    for (const p of people) expect(streams.filter((s: { name: string }) => s.name === `${p}'s channel`)).toHaveLength(1);
  });

  it('channel creation: 8 users creating the SAME channel name at once: one channel, and every one of them subscribed', async () => {
    await api.markEvents();
    const eight = people.slice(0, 8);
    allOk(await Promise.all(eight.map((p) => api.as(p).post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Contested channel' }] }))));
    expect((await api.newEvents()).filter((e) => e.type === 'ChannelCreated')).toHaveLength(1);
    const { streams } = expectSuccess(await api.as('iago').get('/api/v1/streams'));
    expect(streams.filter((s: { name: string }) => s.name.toLowerCase() === 'contested channel')).toHaveLength(1);
    const streamId = await api.channelId('Contested channel', 'person0');
    const { subscribers } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${streamId}/members`));
    expect([...subscribers].sort()).toEqual(eight.map((p) => api.user(p).userId).sort());
  });

  it('subscription changes: 16 users joining one channel at once, then leaving it at once', async () => {
    const streamId = await api.channelId('Contested channel', 'person0');
    allOk(await Promise.all(people.map((p) => api.as(p).post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Contested channel' }] }))));
    let { subscribers } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${streamId}/members`));
    expect([...subscribers].sort()).toEqual(people.map((p) => api.user(p).userId).sort());
    const leaving = people.slice(4);
    allOk(await Promise.all(leaving.map((p) => api.as(p).delete('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify(['Contested channel']) }))));
    ({ subscribers } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${streamId}/members`)));
    expect([...subscribers].sort()).toEqual(people.slice(0, 4).map((p) => api.user(p).userId).sort());
  });

  it('user groups: 16 groups created at once all exist; the SAME name 6 times at once: exactly one wins', async () => {
    const admins = ['iago', 'desdemona'];
    const created = allOk(
      await Promise.all(people.map((p, i) => api.as(admins[i % 2]).post('/api/v1/user_groups/create', { name: `group of ${p}`, description: '', members: JSON.stringify([api.user(p).userId]) }))),
    );
    expect(new Set(created.map((b) => b.group_id)).size).toBe(N);
    const same = await Promise.all(Array.from({ length: 6 }, (_, i) => api.as(admins[i % 2]).post('/api/v1/user_groups/create', { name: 'contested group', description: '', members: '[]' })));
    expect(same.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of same.filter((r) => r.status !== 200)) {
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: "User group 'contested group' already exists." } });
    }
    const { user_groups } = expectSuccess(await api.as('iago').get('/api/v1/user_groups'));
    for (const p of people) expect(user_groups.filter((g: { name: string }) => g.name === `group of ${p}`)).toHaveLength(1);
    expect(user_groups.filter((g: { name: string }) => g.name === 'contested group')).toHaveLength(1);
  });

  it('user group membership: 16 additions to one group at once all apply', async () => {
    const { user_groups } = expectSuccess(await api.as('iago').get('/api/v1/user_groups'));
    const groupId = user_groups.find((g: { name: string }) => g.name === 'contested group').id as number;
    allOk(await Promise.all(people.map((p, i) => api.as(i % 2 ? 'iago' : 'desdemona').post(`/api/v1/user_groups/${groupId}/members`, { add: JSON.stringify([api.user(p).userId]) }))));
    const { members } = expectSuccess(await api.as('iago').get(`/api/v1/user_groups/${groupId}/members`));
    expect([...members].sort()).toEqual(people.map((p) => api.user(p).userId).sort());
  });

  it('organization settings: 16 changes at once by two administrators all apply, in some order', async () => {
    await api.markEvents();
    const descriptions = people.map((p) => `described by ${p}`);
    allOk(await Promise.all(descriptions.map((description, i) => api.as(i % 2 ? 'iago' : 'desdemona').patch('/api/v1/realm', { description }))));
    const changes = (await api.newEvents()).filter((e) => e.type === 'RealmPropertyChanged' && e.data.property === 'description');
    expect(changes.length).toBe(N);
    const { realm_description } = expectSuccess(await api.as('iago').post('/api/v1/register', { fetch_event_types: JSON.stringify(['realm']) }));
    expect(descriptions).toContain(realm_description);
  });

  it('message edits on one topic: 16 senders editing their own message of one topic at once, and 16 edits of one message, all apply', async () => {
    const sent = allOk(
      await Promise.all(people.map((p) => api.as(p).post('/api/v1/messages', { type: 'stream', to: 'Contested channel', topic: 'busy topic', content: `from ${p}` }))),
    ).map((b) => b.id as number);
    allOk(await Promise.all(people.map((p, i) => api.as(p).patch(`/api/v1/messages/${sent[i]}`, { content: `edited by ${p}` }))));
    for (const [i, p] of people.entries()) expect(expectSuccess(await api.as(p).get(`/api/v1/messages/${sent[i]}`)).raw_content).toBe(`edited by ${p}`);
    const versions = Array.from({ length: N }, (_, k) => `version ${k}`);
    allOk(await Promise.all(versions.map((content) => api.as('person0').patch(`/api/v1/messages/${sent[0]}`, { content }))));
    const { message } = expectSuccess(await api.as('person0').get(`/api/v1/messages/${sent[0]}`));
    expect(message.edit_history).toHaveLength(N + 1);
  });

  it('reactions on one message: 16 users reacting at once, with one emoji and each with another, all apply', async () => {
    const id = expectSuccess(await api.as('person0').post('/api/v1/messages', { type: 'stream', to: 'Contested channel', topic: 'reactions', content: 'react to me' })).id as number;
    const emoji = ['smile', 'heart', 'tada', 'rocket', 'star', 'fire', 'check', 'eyes', 'wave', 'clap', 'sunny', 'moon', 'coffee', 'cake', 'gift', 'bell'];
    allOk(
      await Promise.all(
        people.flatMap((p, i) => [
          api.as(p).post(`/api/v1/messages/${id}/reactions`, { emoji_name: 'thumbs_up' }),
          api.as(p).post(`/api/v1/messages/${id}/reactions`, { emoji_name: emoji[i] }),
        ]),
      ),
    );
    const { message } = expectSuccess(await api.as('person0').get(`/api/v1/messages/${id}`));
    const reactions = message.reactions as { emoji_name: string; user_id: number }[];
    expect(reactions.filter((r) => r.emoji_name === 'thumbs_up').map((r) => r.user_id).sort()).toEqual(people.map((p) => api.user(p).userId).sort());
    expect(reactions).toHaveLength(2 * N);
  });
  it('in one process no append ever conflicted (writers took turns); across the split layout\'s processes they retried, and none gave up', async () => {
    const counts = { retried: 0, gave_up: 0 };
    for (const app of api.apps) {
      for (const match of (await app.get(PrometheusMetrics).text()).matchAll(/^command_append_conflicts_total\{outcome="(retried|gave_up)"\} (\d+)$/gm)) {
        counts[match[1] as keyof typeof counts] += Number(match[2]);
      }
    }
    expect(counts.gave_up).toBe(0);
    if (api.apps.length === 1) expect(counts.retried).toBe(0);
    else expect(counts.retried).toBeGreaterThan(0);
  });
});

/**
 * Past its retry budget (COMMAND_RETRY_BUDGET_MS) a command that keeps losing its stream to
 * another process answers 503 in Zulip's envelope, code REQUEST_TIMEOUT, with Retry-After (header
 * and Zulip's `retry-after` field), and changes nothing. Another process is played here by a store
 * whose appends to the renamed user's stream always find it moved on.
 */
describe('a stream busy past the retry budget', () => {
  let api: ApiTestClient;
  let busy = false;
  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['hamlet', 'iago'], config: { commandRetryBudgetMs: 60 } });
    for (const app of api.apps) {
      const store = app.get<EventStorePort>(EVENT_STORE);
      const append = store.appendToStream.bind(store);
      store.appendToStream = async (streamId, events, options) => {
        if (busy && streamId.startsWith('user_profile-')) throw new StreamRevisionConflictError(streamId, options.expectedRevision, 0n);
        return append(streamId, events, options);
      };
    }
  });
  afterAll(() => api.close());

  it('answers 503 REQUEST_TIMEOUT with Retry-After, never CONCURRENT_MODIFICATION, and writes nothing', async () => {
    busy = true;
    await api.markEvents();
    const response = await api.as('hamlet').patch('/api/v1/settings', { full_name: 'Busy Hamlet' });
    busy = false;
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.body).toEqual({
      result: 'error',
      code: 'REQUEST_TIMEOUT',
      msg: 'The server is busy with other changes to the same data; nothing was changed. Retry in 1 second.',
      'retry-after': 1,
    });
    expect(await api.newEvents()).toEqual([]);
    expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).full_name).toBe('King Hamlet');
    // Once the stream is quiet again, the same request goes through.
    expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { full_name: 'Busy Hamlet' }));
    expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).full_name).toBe('Busy Hamlet');
  });
});
