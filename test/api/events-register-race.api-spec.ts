import { ClientEventMappers, ClientEventReactor, EVENT_STORE, type EventStorePort } from '@app/application';
import { TINY_PNG, personaHelpers } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * The register race, for every event type (as zerver/tests/test_events.py does with
 * verify_action): a client registers while changes are being made, then applies the events its
 * queue got to the state it got; the result must equal the state a fresh register answers.
 * Registration runs concurrently with the changes, so it lands anywhere among them.
 */
type State = Record<string, any>;
type Scenario = {
  who: string;
  types: string[];
  steps: (() => Promise<unknown>)[];
  apply: (state: State, event: any) => void;
  pick: (state: State) => unknown;
  /** client_capabilities of the registers (absent: none). */
  capabilities?: Record<string, boolean>;
};

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

// Each scenario registers (steps + 1) × 3 times; the machine is shared.
jest.setTimeout(60_000);

describe('POST /register is race-free: state + queued events = a fresh register', () => {
  let api: ApiTestClient;
  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['desdemona', 'iago', 'hamlet', 'cordelia', 'polonius'] });
    // A reactor that lags behind the projections (as one polling checkpoints in servers mode does)
    // widens the window in which a register can see a change its queue also gets.
    const mappers = api.app.get(ClientEventMappers);
    for (const type of mappers.types()) mappers.register(type, async () => (await new Promise((r) => setTimeout(r, 4)), []));
  });
  afterAll(() => api.close());

  const { id } = personaHelpers(() => api);
  const ok = async (response: Promise<any>) => expectSuccess(await response);
  const register = (who: string, types: string[], capabilities?: Record<string, boolean>) =>
    ok(api.as(who).post('/api/v1/register', { event_types: JSON.stringify(types), ...(capabilities ? { client_capabilities: JSON.stringify(capabilities) } : {}) }));

  /** Every event appended so far has gone through the reactor. */
  const reactorCaughtUp = async () => {
    const head = await api.app.get<EventStorePort>(EVENT_STORE).headPosition();
    const reactor = api.app.get(ClientEventReactor);
    for (let i = 0; i < 500 && head !== undefined && reactor.position < head; i++) await new Promise((r) => setTimeout(r, 5));
  };

  async function check(s: Scenario, registerAt: number, delayMs: number): Promise<void> {
    let first: Promise<State> | undefined;
    const startRegister = () => (first = register(s.who, s.types, s.capabilities));
    for (let i = 0; i < s.steps.length; i++) {
      if (i !== registerAt) {
        await s.steps[i]();
        continue;
      }
      // The register starts while the step's request is in flight (its append, projection, reactor).
      const step = s.steps[i]();
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      else await new Promise((r) => setImmediate(r));
      startRegister();
      await step;
    }
    const state = structuredClone(await (first ?? register(s.who, s.types, s.capabilities)));
    const fresh = await register(s.who, s.types, s.capabilities);
    await reactorCaughtUp();
    const { events } = await ok(api.as(s.who).get('/api/v1/events', { queue_id: state.queue_id, last_event_id: -1, dont_block: true }));
    for (const event of events) if (event.type !== 'heartbeat') s.apply(state, event);
    expect(s.pick(state)).toEqual(s.pick(fresh));
  }

  /** Registers while each step is in flight, at a few moments of it, and after all of them. */
  const verify = async (make: () => Scenario) => {
    const steps = make().steps.length;
    for (let at = 0; at <= steps; at++) for (const delayMs of at === steps ? [0] : [0, 2, 6]) await check(make(), at, delayMs);
  };

  it('muted_users', async () => {
    await verify(() => ({
      who: 'hamlet',
      types: ['muted_users'],
      steps: [
        () => ok(api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('polonius')}`)),
        () => ok(api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('cordelia')}`)),
        () => ok(api.as('hamlet').delete(`/api/v1/users/me/muted_users/${id('polonius')}`)),
        () => ok(api.as('hamlet').delete(`/api/v1/users/me/muted_users/${id('cordelia')}`)),
      ],
      apply: (state, e) => (state.muted_users = e.muted_users),
      pick: (state) => state.muted_users,
    }));
  });

  it('alert_words', async () => {
    await verify(() => ({
      who: 'hamlet',
      types: ['alert_words'],
      steps: [
        () => ok(api.as('hamlet').post('/api/v1/users/me/alert_words', { alert_words: JSON.stringify(['soup', 'bread']) })),
        () => ok(api.as('hamlet').post('/api/v1/users/me/alert_words', { alert_words: JSON.stringify(['Wine']) })),
        () => ok(api.as('hamlet').delete('/api/v1/users/me/alert_words', { alert_words: JSON.stringify(['SOUP']) })),
      ],
      apply: (state, e) => (state.alert_words = e.alert_words),
      pick: (state) => state.alert_words,
    }));
  });

  it('drafts', async () => {
    await verify(() => {
      let draftId = 0;
      return {
        who: 'hamlet',
        types: ['drafts'],
        steps: [
          async () => (draftId = (await ok(api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'one' }] }))).ids[0]),
          () => ok(api.as('hamlet').patch(`/api/v1/drafts/${draftId}`, { draft: { type: '', to: [], topic: '', content: 'edited' } })),
          () => ok(api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: 't', content: 'two' }] })),
          () => ok(api.as('hamlet').delete(`/api/v1/drafts/${draftId}`)),
        ],
        apply: (state, e) => {
          if (e.op === 'add') state.drafts.push(...e.drafts);
          if (e.op === 'update') state.drafts = state.drafts.map((d: any) => (d.id === e.draft.id ? e.draft : d));
          if (e.op === 'remove') state.drafts = state.drafts.filter((d: any) => d.id !== e.draft_id);
        },
        pick: (state) => [...state.drafts].sort(byId),
      };
    });
  });

  it('saved_snippets', async () => {
    await verify(() => {
      let snippetId = 0;
      return {
        who: 'cordelia',
        types: ['saved_snippets'],
        steps: [
          async () => (snippetId = (await ok(api.as('cordelia').post('/api/v1/saved_snippets', { title: 'Hi', content: 'Hello' }))).saved_snippet_id),
          () => ok(api.as('cordelia').patch(`/api/v1/saved_snippets/${snippetId}`, { title: 'Hey' })),
          () => ok(api.as('cordelia').post('/api/v1/saved_snippets', { title: 'Bye', content: 'Goodbye' })),
          () => ok(api.as('cordelia').delete(`/api/v1/saved_snippets/${snippetId}`)),
        ],
        apply: (state, e) => {
          if (e.op === 'add') state.saved_snippets.push(e.saved_snippet);
          if (e.op === 'update') state.saved_snippets = state.saved_snippets.map((s: any) => (s.id === e.saved_snippet.id ? e.saved_snippet : s));
          if (e.op === 'remove') state.saved_snippets = state.saved_snippets.filter((s: any) => s.id !== e.saved_snippet_id);
        },
        pick: (state) => [...state.saved_snippets].sort(byId),
      };
    });
  });

  it('user_settings', async () => {
    await verify(() => ({
      who: 'hamlet',
      types: ['user_settings'],
      steps: [
        () => ok(api.as('hamlet').patch('/api/v1/settings', { twenty_four_hour_time: true })),
        () => ok(api.as('hamlet').patch('/api/v1/settings', { enter_sends: true, left_side_userlist: true })),
        () => ok(api.as('hamlet').patch('/api/v1/settings', { twenty_four_hour_time: false, enter_sends: false })),
      ],
      apply: (state, e) => (state.user_settings[e.property] = e.value),
      pick: (state) => state.user_settings,
    }));
  });

  it('user_status', async () => {
    await verify(() => ({
      who: 'cordelia',
      types: ['user_status'],
      steps: [
        () => ok(api.as('hamlet').post('/api/v1/users/me/status', { status_text: 'out to lunch' })),
        () => ok(api.as('hamlet').post('/api/v1/users/me/status', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' })),
        () => ok(api.as('hamlet').post('/api/v1/users/me/status', { status_text: '', emoji_name: '' })),
      ],
      apply: (state, e) => {
        // The web app's user_status.set_status_*: empty values clear the field.
        const key = String(e.user_id);
        const status = { ...(state.user_status[key] ?? {}) };
        if (e.status_text !== undefined) {
          if (e.status_text === '') delete status.status_text;
          else status.status_text = e.status_text;
        }
        if (e.emoji_name !== undefined) {
          if (e.emoji_name === '') for (const f of ['emoji_name', 'emoji_code', 'reaction_type']) delete status[f];
          else Object.assign(status, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
        }
        if (e.away !== undefined) status.away = e.away;
        if (Object.keys(status).length === 0) delete state.user_status[key];
        else state.user_status[key] = status;
      },
      pick: (state) => state.user_status,
    }));
  });

  it('realm_emoji', async () => {
    let n = 0;
    const upload = (name: string) => {
      const { email, apiKey } = api.user('hamlet');
      return api.http.post(`/api/v1/realm/emoji/${name}`).auth(email, apiKey).attach('f1', TINY_PNG, 'img.png');
    };
    await verify(() => {
      const name = `party_${++n}`;
      return {
        who: 'cordelia',
        types: ['realm_emoji'],
        steps: [
          () => ok(upload(name)),
          () => ok(upload(`${name}_b`)),
          () => ok(api.as('hamlet').delete(`/api/v1/realm/emoji/${name}`)),
        ],
        apply: (state, e) => (state.realm_emoji = e.realm_emoji),
        pick: (state) => state.realm_emoji,
      };
    });
  });

  it('custom_profile_fields', async () => {
    let n = 0;
    await verify(() => {
      let fieldId = 0;
      const suffix = ++n;
      return {
        who: 'hamlet',
        types: ['custom_profile_fields'],
        steps: [
          async () => (fieldId = (await ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: `Phone ${suffix}`, field_type: 1 }))).id),
          () => ok(api.as('iago').patch(`/api/v1/realm/profile_fields/${fieldId}`, { hint: 'Contact no.' })),
          () => ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: `Birthday ${suffix}`, field_type: 4 })),
          () => ok(api.as('iago').delete(`/api/v1/realm/profile_fields/${fieldId}`)),
        ],
        apply: (state, e) => (state.custom_profile_fields = e.fields),
        pick: (state) => state.custom_profile_fields,
      };
    });
  });

  it('realm_linkifiers', async () => {
    let n = 0;
    await verify(() => {
      let first = 0;
      let second = 0;
      const suffix = ++n;
      return {
        who: 'hamlet',
        types: ['realm_linkifiers'],
        capabilities: { linkifier_url_template: true },
        steps: [
          async () => (first = (await ok(api.as('iago').post('/api/v1/realm/filters', { pattern: `A${suffix}-(?P<id>\\d+)`, url_template: 'https://a.test/{id}' }))).id),
          async () => (second = (await ok(api.as('iago').post('/api/v1/realm/filters', { pattern: `B${suffix}-(?P<id>\\d+)`, url_template: 'https://b.test/{id}' }))).id),
          () => ok(api.as('iago').patch(`/api/v1/realm/filters/${first}`, { pattern: `C${suffix}-(?P<id>\\d+)`, url_template: 'https://c.test/{id}' })),
          async () => {
            const ids = ((await ok(api.as('iago').get('/api/v1/realm/linkifiers'))).linkifiers as { id: number }[]).map((l) => l.id);
            return ok(api.as('iago').patch('/api/v1/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify(ids.reverse()) }));
          },
          () => ok(api.as('iago').delete(`/api/v1/realm/filters/${second}`)),
        ],
        apply: (state, e) => (state.realm_linkifiers = e.realm_linkifiers),
        pick: (state) => state.realm_linkifiers,
      };
    });
  });

  it('realm_playgrounds', async () => {
    let n = 0;
    await verify(() => {
      let first = 0;
      const suffix = ++n;
      return {
        who: 'polonius',
        types: ['realm_playgrounds'],
        steps: [
          async () => (first = (await ok(api.as('iago').post('/api/v1/realm/playgrounds', { name: `P${suffix}`, pygments_language: 'Python', url_template: 'https://p.test/?code={code}' }))).id),
          () => ok(api.as('iago').post('/api/v1/realm/playgrounds', { name: `R${suffix}`, pygments_language: 'Rust', url_template: 'https://r.test/?code={code}' })),
          () => ok(api.as('desdemona').delete(`/api/v1/realm/playgrounds/${first}`)),
        ],
        apply: (state, e) => (state.realm_playgrounds = e.realm_playgrounds),
        pick: (state) => state.realm_playgrounds,
      };
    });
  });

  it('default_streams', async () => {
    let n = 0;
    await verify(() => {
      const suffix = ++n;
      const channelId = async (name: string) => (await ok(api.as('iago').get('/api/v1/get_stream_id', { stream: name }))).stream_id as number;
      return {
        who: 'hamlet',
        types: ['default_streams'],
        steps: [
          () => ok(api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: `D${suffix}a` }, { name: `D${suffix}b` }]), is_default_stream: 'true' })),
          async () => ok(api.as('iago').delete('/api/v1/default_streams').query({ stream_id: await channelId(`D${suffix}a`) })),
          async () => ok(api.as('iago').post('/api/v1/default_streams', { stream_id: await channelId(`D${suffix}a`) })),
          async () => ok(api.as('iago').delete(`/api/v1/streams/${await channelId(`D${suffix}b`)}`)),
        ],
        apply: (state, e) => (state.realm_default_streams = e.default_streams),
        pick: (state) => state.realm_default_streams,
      };
    });
  });

  it('channel_folder', async () => {
    let n = 0;
    await verify(() => {
      let folderId = 0;
      const suffix = ++n;
      return {
        who: 'hamlet',
        types: ['channel_folder'],
        steps: [
          async () => (folderId = (await ok(api.as('iago').post('/api/v1/channel_folders/create', { name: `Frontend ${suffix}`, description: '' }))).channel_folder_id),
          () => ok(api.as('iago').patch(`/api/v1/channel_folders/${folderId}`, { name: `Web ${suffix}`, description: 'The **web**' })),
          async () => {
            const { channel_folders } = await ok(api.as('iago').get('/api/v1/channel_folders', { include_archived: true }));
            const ids = channel_folders.map((f: any) => f.id).reverse();
            await ok(api.as('iago').patch('/api/v1/channel_folders', { order: JSON.stringify(ids) }));
          },
          () => ok(api.as('iago').patch(`/api/v1/channel_folders/${folderId}`, { is_archived: true })),
        ],
        apply: (state, e) => {
          if (e.op === 'add') state.channel_folders.push(e.channel_folder);
          if (e.op === 'update') state.channel_folders = state.channel_folders.map((f: any) => (f.id === e.channel_folder_id ? { ...f, ...e.data } : f));
          if (e.op === 'reorder') for (const f of state.channel_folders) f.order = e.order.indexOf(f.id);
        },
        // The folders in their order, and everything but the raw `order` numbers.
        pick: (state) =>
          [...state.channel_folders].sort((a, b) => a.order - b.order || a.id - b.id).map(({ order: _order, ...rest }: any) => rest),
      };
    });
  });

  it('realm (update, update_dict)', async () => {
    let n = 0;
    await verify(() => {
      const suffix = ++n;
      return {
        who: 'hamlet',
        types: ['realm'],
        steps: [
          () => ok(api.as('iago').patch('/api/v1/realm', { name: `Acme ${suffix}` })),
          () => ok(api.as('iago').patch('/api/v1/realm', { message_content_edit_limit_seconds: 600 + suffix, allow_message_editing: suffix % 2 === 0 })),
          () => ok(api.as('iago').patch('/api/v1/realm', { description: `About ${suffix}`, topics_policy: suffix % 2 ? 'disable_empty_topic' : 'allow_empty_topic' })),
        ],
        apply: (state, e) => {
          if (e.op === 'update') state[`realm_${e.property}`] = e.value;
          if (e.op === 'update_dict') for (const [k, v] of Object.entries(e.data)) state[`realm_${k}`] = v;
        },
        pick: (state) => Object.fromEntries(Object.entries(state).filter(([k]) => k.startsWith('realm_'))),
      };
    });
  });

  it('realm_user (add, update, deactivate, reactivate, profile data)', async () => {
    let n = 0;
    const fieldId = (await ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Phone number', field_type: 1 }))).id;
    await verify(() => {
      let userId = 0;
      const suffix = ++n;
      return {
        who: 'hamlet',
        types: ['realm_user'],
        steps: [
          async () => (userId = (await ok(api.as('iago').post('/api/v1/users', { email: `new${suffix}@acme.test`, password: 'long-enough', full_name: `New ${suffix}` }))).user_id),
          () => ok(api.as('iago').patch(`/api/v1/users/${userId}`, { full_name: `Renamed ${suffix}`, role: 300 })),
          () => ok(api.as('hamlet').patch('/api/v1/users/me/profile_data', { data: JSON.stringify([{ id: fieldId, value: `+1 555 ${suffix}` }]) })),
          () => ok(api.as('hamlet').delete('/api/v1/users/me/profile_data', { data: JSON.stringify([fieldId]) })),
          () => ok(api.as('iago').delete(`/api/v1/users/${userId}`)),
          () => ok(api.as('iago').post(`/api/v1/users/${userId}/reactivate`)),
        ],
        apply: (state, e) => {
          if (e.op === 'add') state.realm_users.push(e.person);
          if (e.op !== 'update') return;
          const { user_id, ...fields } = e.person;
          const active = state.realm_users.find((u: any) => u.user_id === user_id);
          const inactive = state.realm_non_active_users.find((u: any) => u.user_id === user_id);
          const person = active ?? inactive;
          if (!person) return;
          const { custom_profile_field: field, new_email: newEmail, ...rest } = fields;
          Object.assign(person, rest);
          if (newEmail !== undefined) person.email = newEmail;
          if (field !== undefined) {
            person.profile_data ??= {};
            if (field.value === null) delete person.profile_data[field.id];
            else person.profile_data[field.id] = field.rendered_value === undefined ? { value: field.value } : { value: field.value, rendered_value: field.rendered_value };
          }
          if (fields.role !== undefined) Object.assign(person, { is_owner: fields.role === 100, is_admin: fields.role <= 200, is_guest: fields.role === 600 });
          if (fields.is_active === false && active) {
            state.realm_users = state.realm_users.filter((u: any) => u !== person);
            state.realm_non_active_users.push(person);
          }
          if (fields.is_active === true && inactive) {
            state.realm_non_active_users = state.realm_non_active_users.filter((u: any) => u !== person);
            state.realm_users.push(person);
          }
        },
        pick: (state) => {
          const sort = (list: any[]) => [...list].sort((a, b) => a.user_id - b.user_id);
          return { active: sort(state.realm_users), inactive: sort(state.realm_non_active_users) };
        },
      };
    });
  });

  it('recent_private_conversations (message events)', async () => {
    let n = 0;
    await verify(() => {
      const dm = (from: string, to: string[]) => () =>
        ok(api.as(from).post('/api/v1/messages', { type: 'direct', to: JSON.stringify(to.map(id)), content: `dm ${++n}` }));
      return {
        who: 'hamlet',
        types: ['message', 'recent_private_conversations'],
        steps: [dm('hamlet', ['cordelia']), dm('cordelia', ['hamlet', 'polonius']), dm('hamlet', ['hamlet']), dm('polonius', ['hamlet'])],
        apply: (state, e) => {
          // The web app's recent_direct_messages: the conversation's other participants, newest id.
          if (e.type !== 'message' || e.message.type !== 'private') return;
          const me = id('hamlet');
          const others = e.message.display_recipient.map((r: any) => r.id).filter((u: number) => u !== me).sort((a: number, b: number) => a - b);
          const key = others.join(',');
          const list = state.recent_private_conversations.filter((c: any) => c.user_ids.join(',') !== key);
          const known = state.recent_private_conversations.find((c: any) => c.user_ids.join(',') === key);
          list.push({ max_message_id: Math.max(known?.max_message_id ?? 0, e.message.id), user_ids: others });
          state.recent_private_conversations = list.sort((a: any, b: any) => b.max_message_id - a.max_message_id);
        },
        pick: (state) => state.recent_private_conversations,
      };
    });
  });

  it('scheduled_messages', async () => {
    await verify(() => {
      let scheduledId = 0;
      const at = Math.floor(Date.now() / 1000) + 3600;
      return {
        who: 'hamlet',
        types: ['scheduled_messages'],
        steps: [
          async () =>
            (scheduledId = (await ok(api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'later', scheduled_delivery_timestamp: at }))).scheduled_message_id),
          () => ok(api.as('hamlet').patch(`/api/v1/scheduled_messages/${scheduledId}`, { content: 'edited' })),
          () => ok(api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: JSON.stringify([id('polonius')]), content: 'another', scheduled_delivery_timestamp: at + 60 })),
          () => ok(api.as('hamlet').delete(`/api/v1/scheduled_messages/${scheduledId}`)),
        ],
        apply: (state, e) => {
          if (e.op === 'add') state.scheduled_messages.push(...e.scheduled_messages);
          if (e.op === 'update') state.scheduled_messages = state.scheduled_messages.map((m: any) => (m.scheduled_message_id === e.scheduled_message.scheduled_message_id ? e.scheduled_message : m));
          if (e.op === 'remove') state.scheduled_messages = state.scheduled_messages.filter((m: any) => m.scheduled_message_id !== e.scheduled_message_id);
        },
        pick: (state) => [...state.scheduled_messages].sort((a: any, b: any) => a.scheduled_message_id - b.scheduled_message_id),
      };
    });
  });

  describe('with a channel', () => {
    let channelId = 0;
    let n = 0;
    beforeAll(async () => {
      // The realm scenario toggles message editing; the unread scenario edits.
      await ok(api.as('iago').patch('/api/v1/realm', { allow_message_editing: true }));
      await ok(api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'Race' }]), principals: JSON.stringify([id('hamlet'), id('cordelia')]) }));
      const { streams } = await ok(api.as('iago').get('/api/v1/streams', { include_all: true }));
      channelId = streams.find((s: any) => s.name === 'Race').stream_id;
    });

    it('stream (create, update, archive)', async () => {
      await verify(() => {
        const name = `Streamed ${++n}`;
        let streamId = 0;
        return {
          who: 'cordelia',
          types: ['stream'],
          steps: [
            async () => {
              await ok(api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]) }));
              streamId = (await ok(api.as('iago').get('/api/v1/get_stream_id', { stream: name }))).stream_id;
            },
            () => ok(api.as('iago').patch(`/api/v1/streams/${streamId}`, { description: 'Described **here**' })),
            () => ok(api.as('iago').patch(`/api/v1/streams/${streamId}`, { new_name: `${name} renamed` })),
            () => ok(api.as('iago').delete(`/api/v1/streams/${streamId}`)),
          ],
          apply: (state, e) => {
            if (e.op === 'create') for (const stream of e.streams) if (!state.streams.some((s: any) => s.stream_id === stream.stream_id)) state.streams.push(stream);
            if (e.op !== 'update') return;
            if (e.property === 'is_archived' && e.value === true) {
              state.streams = state.streams.filter((s: any) => s.stream_id !== e.stream_id);
              return;
            }
            const stream = state.streams.find((s: any) => s.stream_id === e.stream_id);
            if (!stream) return;
            stream[e.property] = e.value;
            if (e.rendered_description !== undefined) stream.rendered_description = e.rendered_description;
          },
          pick: (state) => [...state.streams].map(({ subscriber_count: _n, ...rest }: any) => rest).sort((a: any, b: any) => a.stream_id - b.stream_id),
        };
      });
    });

    it('user_topic', async () => {
      await verify(() => {
        const topic = `topic ${++n}`;
        return {
          who: 'hamlet',
          types: ['user_topic'],
          steps: [
            () => ok(api.as('hamlet').post('/api/v1/user_topics', { stream_id: channelId, topic, visibility_policy: 1 })),
            () => ok(api.as('hamlet').post('/api/v1/user_topics', { stream_id: channelId, topic: `${topic} b`, visibility_policy: 3 })),
            () => ok(api.as('hamlet').post('/api/v1/user_topics', { stream_id: channelId, topic, visibility_policy: 0 })),
          ],
          apply: (state, e) => {
            state.user_topics = state.user_topics.filter((t: any) => !(t.stream_id === e.stream_id && t.topic_name.toLowerCase() === e.topic_name.toLowerCase()));
            if (e.visibility_policy !== 0) state.user_topics.push({ stream_id: e.stream_id, topic_name: e.topic_name, last_updated: e.last_updated, visibility_policy: e.visibility_policy });
          },
          pick: (state) =>
            [...state.user_topics].sort((a: any, b: any) => a.stream_id - b.stream_id || a.topic_name.localeCompare(b.topic_name)),
        };
      });
    });

    it('subscription (add, remove, update, peer events)', async () => {
      await verify(() => {
        const name = `Race ${++n}`;
        return {
          who: 'cordelia',
          types: ['subscription', 'stream'],
          steps: [
            () => ok(api.as('cordelia').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]) })),
            async () => {
              const { streams } = await ok(api.as('cordelia').get('/api/v1/streams'));
              const stream = streams.find((s: any) => s.name === name);
              await ok(api.as('cordelia').post('/api/v1/users/me/subscriptions/properties', { subscription_data: JSON.stringify([{ stream_id: stream.stream_id, property: 'is_muted', value: true }, { stream_id: stream.stream_id, property: 'color', value: '#abcdef' }]) }));
            },
            async () => {
              const { streams } = await ok(api.as('cordelia').get('/api/v1/streams'));
              const stream = streams.find((s: any) => s.name === name);
              await ok(api.as('iago').patch(`/api/v1/streams/${stream.stream_id}`, { new_name: `${name} renamed`, description: 'Now **described**' }));
            },
            () => ok(api.as('cordelia').delete('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify(['Race']) })),
            () => ok(api.as('cordelia').post('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'Race' }]) })),
          ],
          apply: (state, e) => {
            const strip = ({ subscribers: _s, color: _c, is_muted: _m, in_home_view: _h, pin_to_top: _p, desktop_notifications: _d, audible_notifications: _a, push_notifications: _u, email_notifications: _e, wildcard_mentions_notify: _w, ...stream }: any) => stream;
            if (e.type === 'subscription' && e.op === 'add') {
              for (const sub of e.subscriptions) {
                state.subscriptions = state.subscriptions.filter((s: any) => s.stream_id !== sub.stream_id).concat([sub]);
                state.unsubscribed = state.unsubscribed.filter((s: any) => s.stream_id !== sub.stream_id);
                state.never_subscribed = state.never_subscribed.filter((s: any) => s.stream_id !== sub.stream_id);
              }
            }
            if (e.type === 'subscription' && e.op === 'remove') {
              for (const { stream_id } of e.subscriptions) {
                const sub = state.subscriptions.find((s: any) => s.stream_id === stream_id);
                state.subscriptions = state.subscriptions.filter((s: any) => s.stream_id !== stream_id);
                if (sub) state.unsubscribed.push(strip(sub));
              }
            }
            if (e.type === 'subscription' && e.op === 'update') {
              const sub = state.subscriptions.find((s: any) => s.stream_id === e.stream_id);
              if (sub) sub[e.property] = e.value;
            }
            if (e.type === 'stream' && e.op === 'update') {
              for (const list of [state.subscriptions, state.unsubscribed, state.never_subscribed]) {
                const stream = list.find((s: any) => s.stream_id === e.stream_id);
                if (!stream) continue;
                stream[e.property] = e.value;
                if (e.rendered_description !== undefined) stream.rendered_description = e.rendered_description;
              }
            }
            if (e.type === 'stream' && e.op === 'create') {
              for (const stream of e.streams) {
                const known = [...state.subscriptions, ...state.unsubscribed, ...state.never_subscribed].some((s: any) => s.stream_id === stream.stream_id);
                if (!known) state.never_subscribed.push(stream);
              }
            }
          },
          pick: (state) => {
            const strip = ({ subscribers: _s, subscriber_count: _n, ...rest }: any) => rest;
            const sort = (list: any[]) => list.map(strip).sort((a, b) => a.stream_id - b.stream_id);
            return { subscriptions: sort(state.subscriptions), unsubscribed: sort(state.unsubscribed), never_subscribed: sort(state.never_subscribed) };
          },
        };
      });
    });

    it('message, update_message_flags, update_message, delete_message (unread_msgs)', async () => {
      await verify(() => {
        let sent: number[] = [];
        const topic = `unread ${++n}`;
        const send = async (who: string, content: string) => sent.push((await ok(api.as(who).post('/api/v1/messages', { type: 'stream', to: channelId, topic, content }))).id);
        sent = [];
        return {
          who: 'cordelia',
          types: ['message', 'update_message_flags', 'update_message', 'delete_message'],
          steps: [
            () => send('hamlet', 'one'),
            () => send('hamlet', '@**Cordelia Lear** two'),
            () => ok(api.as('cordelia').post('/api/v1/messages/flags', { messages: JSON.stringify(sent), op: 'add', flag: 'read' })),
            () => send('hamlet', 'three'),
            () => ok(api.as('cordelia').post('/api/v1/messages/flags', { messages: JSON.stringify(sent.slice(0, 2)), op: 'remove', flag: 'read' })),
            () => ok(api.as('hamlet').patch(`/api/v1/messages/${sent[0]}`, { content: 'one, @**Cordelia Lear**' })),
            () => ok(api.as('iago').delete(`/api/v1/messages/${sent[1]}`)),
            () => send('hamlet', 'four'),
            () => ok(api.as('cordelia').post('/api/v1/mark_topic_as_read', { stream_id: channelId, topic_name: topic })),
            () => send('hamlet', 'five'),
            () => ok(api.as('cordelia').post('/api/v1/mark_all_as_read')),
          ],
          apply: (state, e) => {
            const unread = state.unread_msgs;
            const all = new Set<number>(state.unread_ids ?? unreadIds(unread));
            const mentions = new Set<number>(state.mention_ids ?? unread.mentions);
            if (e.type === 'message') state.received = [...(state.received ?? []), e.message.id];
            if (e.type === 'message' && !e.flags.includes('read')) {
              all.add(e.message.id);
              if (e.flags.includes('mentioned') || e.flags.includes('wildcard_mentioned')) mentions.add(e.message.id);
            }
            if (e.type === 'update_message_flags' && e.flag === 'read' && e.op === 'add' && e.all) {
              // do_mark_all_as_read names no messages.
              all.clear();
              mentions.clear();
            }
            if (e.type === 'update_message_flags' && e.flag === 'read') {
              for (const m of e.messages) {
                if (e.op === 'add') {
                  all.delete(m);
                  mentions.delete(m);
                } else {
                  all.add(m);
                  if (e.message_details?.[m]?.mentioned) mentions.add(m);
                }
              }
            }
            if (e.type === 'update_message' && all.has(e.message_id) && (e.flags.includes('mentioned') || e.flags.includes('wildcard_mentioned'))) mentions.add(e.message_id);
            if (e.type === 'delete_message') {
              for (const m of e.message_ids) {
                all.delete(m);
                mentions.delete(m);
              }
            }
            state.unread_ids = [...all].sort((a, b) => a - b);
            state.mention_ids = [...mentions].sort((a, b) => a - b);
          },
          pick: (state) => ({
            // No message is delivered twice (or both in the state and as an event).
            duplicates: (state.received ?? []).filter((m: number, i: number, all: number[]) => all.indexOf(m) !== i),
            unread: state.unread_ids ?? unreadIds(state.unread_msgs),
            mentions: state.mention_ids ?? [...state.unread_msgs.mentions].sort((a: number, b: number) => a - b),
          }),
        };
      });
    });
  });
});

const unreadIds = (u: any): number[] =>
  [...u.pms, ...u.streams, ...u.huddles].flatMap((c: any) => c.unread_message_ids).sort((a: number, b: number) => a - b);
