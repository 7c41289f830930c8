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
  const channel = async (name: string, who = 'iago') => {
    expectSuccess(await api.as(who).post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] }));
    return expectSuccess(await api.as(who).get('/api/v1/get_stream_id', { stream: name })).stream_id as number;
  };

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
    const applied = clean(await Promise.all(changes.map((params) => api.as('iago').patch(`/api/v1/streams/${streamId}`, params))));
    expect(applied).toHaveLength(changes.length);
    const { stream } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${streamId}`));
    expect(stream).toMatchObject({ description: 'parallel', name: 'renamed in parallel' });
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
