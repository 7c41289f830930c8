import { ApiTestClient, expectSuccess } from '../support';
import { coverageWorkload, randomWorkload } from '../replay/workload';
import { DOCUMENTED_EVENTS as DOCUMENTED, EVENT_COMMON_KEYS as COMMON, PERSON_UPDATE_FORMS as PERSON_UPDATES } from '../support/event-shapes';

/**
 * Every event the server sends, held against the shapes zerver/openapi/zulip.yaml documents for
 * GET /events (each event schema there has `additionalProperties: false`): queues registered for
 * every event type by five users of different roles, then the replay suites' coverage workload
 * (which makes every kind of change the product records) and a random one, plus typing. Each
 * event's keys must be among those documented for its type and op, with the required ones present.
 */
describe('event shapes (zulip.yaml GET /events)', () => {
  let api: ApiTestClient;
  const events: Record<string, any>[] = [];
  beforeAll(async () => {
    api = await ApiTestClient.start({ config: { pushNotificationsBouncerUrl: 'https://push.example.com' } });
    const who = ['hamlet', 'iago', 'cordelia', 'desdemona', 'polonius'];
    const queues = new Map<string, string>();
    for (const name of who) {
      // Desdemona's client takes the single emoji changes of feature level 491, the others the whole dict.
      const individualEmoji = name === 'desdemona';
      queues.set(name, expectSuccess(await api.as(name).post('/api/v1/register', { client_capabilities: { stream_typing_notifications: true, user_settings_object: true, individual_emoji_changes: individualEmoji } })).queue_id);
    }
    await coverageWorkload(api);
    await randomWorkload(api, 1, 40);
    expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: JSON.stringify([api.user('cordelia').userId]) }));
    expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'stop', to: JSON.stringify([api.user('cordelia').userId]) }));
    for (const name of who) {
      const response = await api.as(name).get('/api/v1/events', { queue_id: queues.get(name), last_event_id: -1, dont_block: true });
      // A persona the workload deactivated has lost its queue with its account.
      if (response.status === 200) events.push(...response.body.events);
    }
  }, 120_000);
  afterAll(() => api.close());

  const kind = (e: Record<string, any>) => `${e.type}/${e.op ?? ''}`;

  it('the workload produced the common event types (the check below is not vacuous)', () => {
    const kinds = new Set(events.map(kind));
    for (const expected of ['message/', 'update_message/', 'delete_message/', 'update_message_flags/add', 'subscription/add', 'subscription/peer_add', 'stream/create', 'stream/update', 'realm_user/add', 'realm_user/update', 'realm/update', 'user_topic/', 'typing/start', 'typing/stop', 'realm_emoji/update', 'realm_emoji/add', 'realm_emoji/update_one', 'stream/delete', 'device/add', 'device/update', 'device/remove', 'realm_playgrounds/', 'default_streams/']) {
      expect([...kinds]).toContain(expected);
    }
  });

  it('every event has a documented type and op, its required keys and no undocumented key', () => {
    const problems: string[] = [];
    for (const event of events) {
      const documented = DOCUMENTED[kind(event)];
      if (!documented) {
        problems.push(`${kind(event)}: not a documented event`);
        continue;
      }
      const [required, optional] = documented;
      const allowed = new Set([...COMMON, ...required, ...optional]);
      for (const key of Object.keys(event)) if (!allowed.has(key)) problems.push(`${kind(event)}: undocumented key ${key}`);
      for (const key of required) if (!(key in event)) problems.push(`${kind(event)}: missing ${key}`);
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('realm_user updates carry one documented form of person', () => {
    const forms = events.filter((e) => kind(e) === 'realm_user/update').map((e) => Object.keys(e.person).sort().join(','));
    expect(forms.length).toBeGreaterThan(0);
    expect([...new Set(forms.filter((f) => !PERSON_UPDATES.includes(f)))]).toEqual([]);
  });

  it('update_message: content fields together or not at all, topic fields together or not at all, orig_subject for every move', () => {
    const edits = events.filter((e) => e.type === 'update_message');
    expect(edits.length).toBeGreaterThan(0);
    for (const e of edits) {
      const content = ['orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message'].filter((k) => k in e);
      expect([0, 5]).toContain(content.length);
      const topic = ['subject', 'topic_links'].filter((k) => k in e);
      expect([0, 2]).toContain(topic.length);
      // do_update_message: orig_subject whenever the channel or the topic changed.
      expect('orig_subject' in e).toBe(topic.length > 0 || 'new_stream_id' in e);
      if (topic.length > 0 || 'new_stream_id' in e) expect(e).toHaveProperty('propagate_mode');
      else expect(e).not.toHaveProperty('propagate_mode');
    }
  });
});
