import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess, runCli } from '../support';

/**
 * Issue 35 item 7: a user's `email_address_visibility` setting (Zulip 7+) applied. Under any
 * setting but "everyone", `email` is `user<id>@<fake domain>` for every viewer — in user objects,
 * `sender_email`, `display_recipient`, events and /register — and `delivery_email` goes only to the
 * user and the roles the setting allows ("nobody": nobody, owners included). Lookups by the real
 * address fail for whoever may not read it; the dummy address works for everyone.
 */
describe('email_address_visibility', () => {
  let api: ApiTestClient;
  const { id, send, register, queue, events } = personaHelpers(() => api);
  let dummy = '';
  const REAL = 'hamlet@acme.test';

  const setVisibility = async (who: string, value: number) => expectSuccess(await api.as(who).patch('/api/v1/settings', { email_address_visibility: value }));
  const userAs = async (viewer: string, key: string | number) => api.as(viewer).get(`/api/v1/users/${key}`);

  beforeAll(async () => {
    api = await ApiTestClient.start();
    dummy = `user${id('hamlet')}@${(await register('hamlet')).realm_bot_domain}`;
  });
  afterAll(() => api.close());
  afterEach(() => setVisibility('hamlet', 1));

  it('under "everyone" (the default) shows the real address in email and delivery_email', async () => {
    const { user } = expectSuccess(await userAs('polonius', id('hamlet')));
    expect(user).toMatchObject({ email: REAL, delivery_email: REAL });
  });

  it('under "administrators": a dummy email for all, delivery_email for the user and administrators only', async () => {
    await setVisibility('hamlet', 3);
    const seen: Record<string, unknown> = {};
    for (const viewer of ['hamlet', 'desdemona', 'iago', 'shiva', 'cordelia', 'polonius']) {
      const { user } = expectSuccess(await userAs(viewer, id('hamlet')));
      expect(user.email).toBe(dummy);
      seen[viewer] = user.delivery_email;
    }
    expect(seen).toEqual({ hamlet: REAL, desdemona: REAL, iago: REAL, shiva: null, cordelia: null, polonius: null });
    // GET /users and /users/me alike.
    const { members } = expectSuccess(await api.as('cordelia').get('/api/v1/users'));
    expect(members.find((u: any) => u.user_id === id('hamlet'))).toMatchObject({ email: dummy, delivery_email: null });
    expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me'))).toMatchObject({ email: dummy, delivery_email: REAL });
  });

  it('"nobody" hides the real address from owners and administrators too', async () => {
    await setVisibility('hamlet', 4);
    for (const viewer of ['desdemona', 'iago']) {
      const { user } = expectSuccess(await userAs(viewer, id('hamlet')));
      expect(user).toMatchObject({ email: dummy, delivery_email: null });
    }
    expect(expectSuccess(await userAs('hamlet', id('hamlet'))).user.delivery_email).toBe(REAL);
  });

  it('"members" and "moderators" follow the roles Zulip lists', async () => {
    await setVisibility('hamlet', 2);
    expect(expectSuccess(await userAs('cordelia', id('hamlet'))).user.delivery_email).toBe(REAL);
    expect(expectSuccess(await userAs('polonius', id('hamlet'))).user.delivery_email).toBeNull();
    await setVisibility('hamlet', 5);
    expect(expectSuccess(await userAs('shiva', id('hamlet'))).user.delivery_email).toBe(REAL);
    expect(expectSuccess(await userAs('cordelia', id('hamlet'))).user.delivery_email).toBeNull();
  });

  it('messages carry the dummy address in sender_email and display_recipient', async () => {
    await setVisibility('hamlet', 4);
    const messageId = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'hello' });
    for (const viewer of ['cordelia', 'hamlet']) {
      const { message } = expectSuccess(await api.as(viewer).get(`/api/v1/messages/${messageId}`));
      expect(message.sender_email).toBe(dummy);
      expect(message.display_recipient.find((r: any) => r.id === id('hamlet')).email).toBe(dummy);
      expect(JSON.stringify(message)).not.toContain(REAL);
    }
  });

  it('/register: realm_users with the dummy email, delivery_email per viewer; the user\'s own setting', async () => {
    await setVisibility('hamlet', 3);
    const person = (state: any) => state.realm_users.find((u: any) => u.user_id === id('hamlet'));
    expect(person(await register('cordelia', { fetch_event_types: JSON.stringify(['realm_user']) }))).toMatchObject({ email: dummy, delivery_email: null });
    expect(person(await register('iago', { fetch_event_types: JSON.stringify(['realm_user']) }))).toMatchObject({ email: dummy, delivery_email: REAL });
    const own = await register('hamlet', { fetch_event_types: JSON.stringify(['realm_user', 'user_settings']) });
    expect(own).toMatchObject({ email: dummy, delivery_email: REAL });
    expect(own.user_settings.email_address_visibility).toBe(3);
  });

  it('a change sends new_email to everyone and delivery_email updates to whoever gains or loses it (send_delivery_email_update_events)', async () => {
    const queues: Record<string, string> = {};
    for (const viewer of ['iago', 'cordelia', 'hamlet']) queues[viewer] = await queue(viewer, ['realm_user']);
    await setVisibility('hamlet', 3);
    const updates = async (viewer: string) => (await events(viewer, queues[viewer])).filter((e) => e.type === 'realm_user').map((e) => e.person);
    expect(await updates('iago')).toEqual([{ user_id: id('hamlet'), new_email: dummy }]);
    expect(await updates('cordelia')).toEqual(expect.arrayContaining([{ user_id: id('hamlet'), new_email: dummy }, { user_id: id('hamlet'), delivery_email: null }]));
    expect(await updates('hamlet')).toEqual([{ user_id: id('hamlet'), new_email: dummy }]);
    // Back to "everyone": the real address is the email again, and cordelia regains delivery_email.
    await setVisibility('hamlet', 1);
    const after = await updates('cordelia');
    expect(after).toEqual(expect.arrayContaining([{ user_id: id('hamlet'), new_email: REAL }, { user_id: id('hamlet'), delivery_email: REAL }]));
  });

  it('the audit history hides the real address from administrators the setting excludes ("nobody": all of them)', async () => {
    const created = async (who: string) => {
      const { history } = expectSuccess(await api.as(who).get('/api/v1/svc/history', { user_id: id('hamlet') }));
      const entry = (history as any[]).find((e) => e.type === 'UserCreated');
      return { email: entry.data.email, hidden: entry.hidden };
    };
    expect(await created('iago')).toMatchObject({ email: REAL });
    await setVisibility('hamlet', 3);
    expect((await created('iago')).email).toBe(REAL);
    await setVisibility('hamlet', 4);
    for (const who of ['iago', 'desdemona']) {
      const seen = await created(who);
      expect(seen.email).toBe('[hidden]');
      expect(seen.hidden).toContain('email');
    }
    // The operator (the CLI, with the data directory) still reads it.
    const { out } = await runCli(api.app.get<AppConfig>(APP_CONFIG).dataDir, ['history', '--user', REAL, '--json']);
    expect(out.join('\n')).toContain(REAL);
  });

  it('a lookup by the real address fails for whoever may not read it; the dummy address works for all', async () => {
    await setVisibility('hamlet', 3);
    expectError(await userAs('cordelia', REAL), 'No such user', { status: 400 });
    expect(expectSuccess(await userAs('cordelia', dummy)).user.user_id).toBe(id('hamlet'));
    expect(expectSuccess(await userAs('iago', REAL)).user.user_id).toBe(id('hamlet'));
    // Sending a direct message, a narrow, presence and subscribing others by address alike.
    expectError(await api.as('cordelia').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([REAL]), content: 'x' }), `Invalid email '${REAL}'`);
    expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([dummy]), content: 'x' }));
    const narrowed = await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'dm', operand: REAL }]) });
    expect({ status: narrowed.status, result: narrowed.body.result }).toEqual({ status: 400, result: 'error' });
    expect(narrowed.body.msg).toContain('unknown user');
    expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'dm', operand: dummy }]) }));
    expectError(await api.as('cordelia').get(`/api/v1/users/${REAL}/presence`), 'No such user');
  });
});
