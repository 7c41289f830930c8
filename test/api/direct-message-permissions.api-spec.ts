import { SCHEDULER } from '@app/application';
import type { TimerScheduler } from '@app/infrastructure';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * Issue 35 item 7: the organization's direct_message_permission_group and
 * direct_message_initiator_group checked on every direct message, scheduled ones included
 * (zerver/actions/message_send.py check_can_send_direct_message): a conversation must include
 * someone of the permission group ("nobody": direct messages are off); only the initiator group
 * may start a new conversation; bots and conversations of only bots (or oneself) are exempt.
 */
describe('direct message permissions', () => {
  let api: ApiTestClient;
  const { id, send, refused } = personaHelpers(() => api);
  const DISABLED = 'Direct messages are disabled in this organization.';
  const UNAUTHORIZED = 'This conversation does not include any users who can authorize it.';
  const NOT_INITIATOR = 'You are not allowed to start direct message conversations.';

  beforeEach(async () => {
    api = await ApiTestClient.start();
  });
  afterEach(() => api.close());

  const setRealm = async (setting: string, group: string) => {
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { [setting]: JSON.stringify({ new: api.systemGroupId(group) }) }));
    await api.markEvents();
  };
  const dm = (who: string, to: string[], content = 'hi') => api.as(who).post('/api/v1/messages', { type: 'direct', to: JSON.stringify(to.map(id)), content });
  const schedule = (who: string, to: string[]) =>
    api.as(who).post('/api/v1/scheduled_messages', {
      type: 'direct', to: JSON.stringify(to.map(id)), content: 'later', scheduled_delivery_timestamp: Math.floor(api.clock.now().getTime() / 1000) + 3600,
    });

  it('by default (role:everyone for both) anyone may write to anyone', async () => {
    expectSuccess(await dm('polonius', ['cordelia']));
    expectSuccess(await schedule('hamlet', ['cordelia']));
  });

  it('"nobody" turns direct messages off, scheduled ones included; oneself and bots stay allowed', async () => {
    const bot = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Helper', short_name: 'helper' }));
    await setRealm('direct_message_permission_group', 'role:nobody');
    await refused(await dm('hamlet', ['cordelia']), DISABLED, { code: 'BAD_REQUEST' });
    await refused(await dm('desdemona', ['iago']), DISABLED, { code: 'BAD_REQUEST' });
    await refused(await schedule('hamlet', ['cordelia']), DISABLED, { code: 'BAD_REQUEST' });
    expectSuccess(await dm('hamlet', ['hamlet']));
    expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([bot.user_id]), content: 'to my bot' }));
    // A bot may still write to a human.
    const botEmail = expectSuccess(await api.as('hamlet').get(`/api/v1/users/${bot.user_id}`)).user.email as string;
    const asBot = await api.http.post('/api/v1/messages').auth(botEmail, bot.api_key).type('form').send({ type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'beep' });
    expectSuccess(asBot);
  });

  it('a group: the conversation must include one of its members, the sender or a recipient', async () => {
    await setRealm('direct_message_permission_group', 'role:administrators');
    await refused(await dm('hamlet', ['cordelia']), UNAUTHORIZED, { code: 'BAD_REQUEST' });
    await refused(await schedule('hamlet', ['cordelia', 'shiva']), UNAUTHORIZED, { code: 'BAD_REQUEST' });
    expectSuccess(await dm('hamlet', ['iago']));
    expectSuccess(await dm('hamlet', ['cordelia', 'iago']));
    expectSuccess(await dm('iago', ['cordelia']));
    expectSuccess(await schedule('cordelia', ['desdemona']));
  });

  it('direct_message_initiator_group: others may only answer in an existing conversation', async () => {
    await setRealm('direct_message_initiator_group', 'role:moderators');
    await refused(await dm('hamlet', ['cordelia']), NOT_INITIATOR, { code: 'BAD_REQUEST' });
    await refused(await schedule('hamlet', ['cordelia']), NOT_INITIATOR, { code: 'BAD_REQUEST' });
    // shiva (a moderator) starts; hamlet may answer, in that conversation only.
    await send('shiva', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'hello' });
    expectSuccess(await dm('hamlet', ['shiva']));
    expectSuccess(await schedule('hamlet', ['shiva']));
    await api.markEvents();
    await refused(await dm('hamlet', ['shiva', 'cordelia']), NOT_INITIATOR, { code: 'BAD_REQUEST' });
    const { realm_direct_message_initiator_group: group } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: JSON.stringify(['realm']) }));
    expect(group).toBe(api.systemGroupId('role:moderators'));
  });

  it('a scheduled direct message that became forbidden fails at delivery', async () => {
    const scheduledId = expectSuccess(await schedule('hamlet', ['cordelia'])).scheduled_message_id;
    await setRealm('direct_message_permission_group', 'role:nobody');
    api.clock.advance(3601 * 1000);
    await api.settled();
    await api.background.get<TimerScheduler>(SCHEDULER).runDue();
    const { scheduled_messages: list } = expectSuccess(await api.as('hamlet').get('/api/v1/scheduled_messages'));
    expect(list.find((m: any) => m.scheduled_message_id === scheduledId)).toMatchObject({ failed: true });
    const { messages } = expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0 }));
    expect(messages.map((m: any) => m.content)).not.toContain('<p>later</p>');
  });
});
