import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * ≈ zerver/tests/test_message_report.py and test_realm.py's moderation_request_channel tests:
 * PATCH /realm moderation_request_channel_id, POST /messages/{message_id}/report, and what
 * /register says about them.
 */
const MESSAGES = '/api/v1/messages';
const REALM = '/api/v1/realm';

describe('message reports', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, createChannel: createAs } = personaHelpers(() => api);
  const mention = (name: string, fullName: string) => `@_**${fullName}|${id(name)}**`;
  const createChannel = (name: string, members: string[], options: { private?: boolean; by?: string } = {}) =>
    createAs(options.by ?? 'iago', name, { principals: members.map(id), invite_only: options.private === true });
  const setChannel = (who: string, channelId: number) => api.as(who).patch(REALM, { moderation_request_channel_id: channelId });
  const report = (who: string, messageId: number, params: Record<string, unknown>) => api.as(who).post(`${MESSAGES}/${messageId}/report`, params);
  const sendToChannel = async (who: string, channel: string, topic: string, content: string) =>
    expectSuccess(await api.as(who).post(MESSAGES, { type: 'stream', to: channel, topic, content })).id as number;
  const sendDirect = async (who: string, to: string[], content: string) =>
    expectSuccess(await api.as(who).post(MESSAGES, { type: 'private', to: JSON.stringify(to.map(id)), content })).id as number;
  const messageOf = async (who: string, messageId: number) =>
    expectSuccess(await api.as(who).get(`${MESSAGES}/${messageId}`, { apply_markdown: false })).message as { timestamp: number; content: string };
  const time = (seconds: number) => `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
  /** The messages in a channel, oldest first, as `who` sees them (raw Markdown). */
  const inChannel = async (who: string, channelId: number) => {
    const { messages } = expectSuccess(await api.as(who).get(MESSAGES, {
      anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'channel', operand: channelId }]),
    }));
    return messages as { content: string; subject: string; sender_full_name: string; id: number }[];
  };
  /** Direct messages Notification Bot sent `who`, oldest first. */
  const botDirectMessages = async (who: string) => {
    const { messages } = expectSuccess(await api.as(who).get(MESSAGES, {
      anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false, narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]),
    }));
    return (messages as { content: string; sender_full_name: string }[]).filter((m) => m.sender_full_name === 'Notification Bot').map((m) => m.content);
  };
  const realmUrl = async () => expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['realm'] })).realm_url as string;

  describe('PATCH /realm moderation_request_channel_id', () => {
    it('sets a private channel, answers it, shows it in /register and sends a realm update event; -1 disables', async () => {
      const channelId = await createChannel('reported messages', ['iago'], { private: true });
      const registered = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['realm'] }));
      expect(registered.realm_moderation_request_channel_id).toBe(-1);

      expect(expectSuccess(await setChannel('iago', channelId))).toEqual({ result: 'success', msg: '', moderation_request_channel_id: channelId });
      const again = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['realm'] }));
      expect(again.realm_moderation_request_channel_id).toBe(channelId);

      expect(expectSuccess(await setChannel('iago', -1))).toEqual({ result: 'success', msg: '', moderation_request_channel_id: -1 });
      const { events } = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: registered.queue_id, last_event_id: -1, dont_block: true }));
      expect(events).toEqual([
        { id: 0, type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: channelId },
        { id: 1, type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: -1 },
      ]);
    });

    it('lets an administrator pick a private channel they are not subscribed to', async () => {
      const channelId = await createChannel('mods only', ['desdemona'], { private: true, by: 'desdemona' });
      expectSuccess(await setChannel('iago', channelId));
      expect(expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: ['realm'] })).realm_moderation_request_channel_id).toBe(channelId);
    });

    it('refuses a public channel, an unknown or archived channel, and a non-integer, changing nothing', async () => {
      const publicId = await createChannel('Denmark', ['iago']);
      const archivedId = await createChannel('old reports', ['iago'], { private: true });
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${archivedId}`));
      await api.markEvents();
      expectError(await setChannel('iago', publicId), 'Moderation request channel must be private.');
      expectError(await setChannel('iago', 999999), 'Invalid channel ID');
      expectError(await setChannel('iago', archivedId), 'Invalid channel ID');
      expectError(await api.as('iago').patch(REALM, { moderation_request_channel_id: '"reports"' }), 'moderation_request_channel_id is not an integer');
      expect(await api.newEvents()).toEqual([]);
      expect(expectSuccess(await api.as('iago').post('/api/v1/register', { fetch_event_types: ['realm'] })).realm_moderation_request_channel_id).toBe(-1);
    });

    it('is for administrators: members, moderators and guests are refused', async () => {
      const channelId = await createChannel('reported messages', ['iago'], { private: true });
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        expectError(await setChannel(who, channelId), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      }
      expectSuccess(await setChannel('desdemona', channelId));
    });
  });

  it('/register lists the report types (server_report_message_types, feature level 435)', async () => {
    const registered = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['realm'] }));
    expect(registered.server_report_message_types).toEqual([
      { key: 'spam', name: 'Spam' },
      { key: 'harassment', name: 'Harassment' },
      { key: 'inappropriate', name: 'Inappropriate content' },
      { key: 'norms', name: 'Violates community norms' },
      { key: 'other', name: 'Other reason' },
    ]);
  });

  describe('POST /messages/{message_id}/report', () => {
    let moderationId: number;
    let denmarkId: number;
    beforeEach(async () => {
      moderationId = await createChannel('reported messages', ['iago', 'shiva'], { private: true });
      denmarkId = await createChannel('Denmark', ['hamlet', 'cordelia', 'polonius']);
      expectSuccess(await setChannel('iago', moderationId));
    });

    it('posts Notification Bot\'s report of a channel message under "<sender> moderation", and confirms it to the reporter', async () => {
      const messageId = await sendToChannel('cordelia', 'Denmark', 'civilized discussions', 'I squeeze toothpaste from the middle');
      const { timestamp } = await messageOf('cordelia', messageId);
      expect(expectSuccess(await report('hamlet', messageId, { report_type: 'harassment', description: 'this is crime against food' }))).toEqual({ result: 'success', msg: '' });

      const [posted] = await inChannel('shiva', moderationId);
      expect(posted.sender_full_name).toBe('Notification Bot');
      expect(posted.subject).toBe('Cordelia Lear moderation');
      expect(posted.content).toBe(
        `${mention('hamlet', 'King Hamlet')} reported a message sent by ${mention('cordelia', 'Cordelia Lear')} at ${time(timestamp)}.\n` +
          '```quote\n**Harassment**. this is crime against food\n```\n\n' +
          `\`\`\` spoiler Original message at #**Denmark>civilized discussions@${messageId}**\nI squeeze toothpaste from the middle\n\`\`\``,
      );
      const url = await realmUrl();
      expect(await botDirectMessages('hamlet')).toEqual([`You reported [a message](${url}/#narrow/channel/${denmarkId}-Denmark/topic/civilized.20discussions/near/${messageId}) for harassment.`]);
    });

    it('reports a public channel message the reporter is not subscribed to; a second report adds a second message', async () => {
      const messageId = await sendToChannel('cordelia', 'Denmark', 'topic', 'spam spam spam');
      expectSuccess(await report('desdemona', messageId, { report_type: 'spam' }));
      expectSuccess(await report('hamlet', messageId, { report_type: 'norms', description: 'again' }));
      const posted = await inChannel('iago', moderationId);
      expect(posted.map((m) => m.content.split('\n')[1])).toEqual(['```quote', '```quote']);
      expect(posted.map((m) => m.content.split('\n')[2])).toEqual(['**Spam**. ', '**Violates community norms**. again']);
    });

    it('reports direct messages: the recipient\'s report names no recipient; one\'s own names the recipient; group ones list the others', async () => {
      const url = await realmUrl();
      const dm = await sendDirect('cordelia', ['hamlet'], 'I dip fries in ice cream');
      const { timestamp } = await messageOf('hamlet', dm);
      const pair = [id('cordelia'), id('hamlet')].sort((a, b) => a - b).join(',');
      expectSuccess(await report('hamlet', dm, { report_type: 'inappropriate' }));
      expectSuccess(await report('cordelia', dm, { report_type: 'other', description: 'testing' }));
      const group = await sendDirect('cordelia', ['hamlet', 'iago'], 'I eat cereal with water');
      expectSuccess(await report('hamlet', group, { report_type: 'spam' }));

      const [fromRecipient, own, grouped] = (await inChannel('iago', moderationId)).map((m) => m.content);
      expect(fromRecipient).toBe(
        `${mention('hamlet', 'King Hamlet')} reported a message sent by ${mention('cordelia', 'Cordelia Lear')} at ${time(timestamp)}.\n` +
          '```quote\n**Inappropriate content**. \n```\n\n' +
          `\`\`\` spoiler [Original message](${url}/#narrow/dm/${pair}/near/${dm})\nI dip fries in ice cream\n\`\`\``,
      );
      expect(own.split('\n')[0]).toBe(`${mention('cordelia', 'Cordelia Lear')} reported a message sent by ${mention('cordelia', 'Cordelia Lear')} to ${mention('hamlet', 'King Hamlet')} at ${time(timestamp)}.`);
      const others = [['hamlet', 'King Hamlet'], ['iago', 'Iago']].sort((a, b) => id(a[0]) - id(b[0])).map(([n, f]) => mention(n, f));
      expect(grouped.split('\n')[0]).toContain(`sent by ${mention('cordelia', 'Cordelia Lear')} to ${others.join(' and ')} at `);
      const trio = [id('cordelia'), id('hamlet'), id('iago')].sort((a, b) => a - b).join(',');
      expect(grouped).toContain(`[Original message](${url}/#narrow/dm/${trio}-group/near/${group})`);
      expect(await botDirectMessages('cordelia')).toEqual([`You reported [a message](${url}/#narrow/dm/${pair}/near/${dm}) for other reason.`]);
    });

    it('wraps a message holding a code fence in a longer fence', async () => {
      const messageId = await sendToChannel('cordelia', 'Denmark', 'code', '```\nrm -rf /\n```');
      expectSuccess(await report('hamlet', messageId, { report_type: 'spam' }));
      const [posted] = await inChannel('iago', moderationId);
      expect(posted.content.endsWith(`\`\`\`\` spoiler Original message at #**Denmark>code@${messageId}**\n\`\`\`\nrm -rf /\n\`\`\`\n\`\`\`\``)).toBe(true);
    });

    it('refuses, posting nothing: unknown type, a missing explanation for "other", a long description, a message one cannot read', async () => {
      const messageId = await sendToChannel('cordelia', 'Denmark', 'topic', 'hello');
      await createChannel('secret', ['cordelia'], { private: true, by: 'cordelia' });
      const secret = await sendToChannel('cordelia', 'secret', 'topic', 'hidden');
      const dm = await sendDirect('cordelia', ['iago'], 'between us');
      await api.markEvents();
      expectError(await report('hamlet', messageId, { report_type: 'rude' }), 'Invalid report_type');
      expectError(await report('hamlet', messageId, {}), 'Missing \'report_type\' argument');
      expectError(await report('hamlet', messageId, { report_type: 'other' }), 'An explanation is required.');
      expectError(await report('hamlet', messageId, { report_type: 'other', description: '' }), 'An explanation is required.');
      expectError(await report('hamlet', messageId, { report_type: 'spam', description: 'x'.repeat(1001) }), 'description is too long (limit: 1000 characters)');
      expectError(await report('hamlet', secret, { report_type: 'spam' }), 'Invalid message(s)');
      expectError(await report('hamlet', dm, { report_type: 'spam' }), 'Invalid message(s)');
      expectError(await report('hamlet', 999999, { report_type: 'spam' }), 'Invalid message(s)');
      expect(await api.newEvents()).toEqual([]);
      expectSuccess(await report('hamlet', messageId, { report_type: 'spam', description: 'x'.repeat(1000) }));
    });

    it('refuses every report while reporting is disabled (-1)', async () => {
      const messageId = await sendToChannel('cordelia', 'Denmark', 'topic', 'hello');
      expectSuccess(await setChannel('iago', -1));
      await api.markEvents();
      expectError(await report('hamlet', messageId, { report_type: 'spam' }), 'Message reporting is not enabled in this organization.');
      expect(await api.newEvents()).toEqual([]);
      expect(await inChannel('iago', moderationId)).toEqual([]);
    });

    it('answers "Failed to send the message report." when the moderation channel was archived since', async () => {
      const messageId = await sendToChannel('cordelia', 'Denmark', 'topic', 'hello');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${moderationId}`));
      expectError(await report('hamlet', messageId, { report_type: 'spam' }), 'Failed to send the message report.');
      expect(await botDirectMessages('hamlet')).toEqual([]);
    });

    it('guests report what they can read, and nothing else; bots may report too', async () => {
      const inDenmark = await sendToChannel('cordelia', 'Denmark', 'topic', 'hello guest');
      await createChannel('Verona', ['cordelia']);
      const inVerona = await sendToChannel('cordelia', 'Verona', 'topic', 'not for guests');
      expectSuccess(await report('polonius', inDenmark, { report_type: 'spam' }));
      expectError(await report('polonius', inVerona, { report_type: 'spam' }), 'Invalid message(s)');

      const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Watcher', shortName: 'watcher', ownerId: id('hamlet') }));
      api.credentials.set('watcher', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
      expectSuccess(await report('watcher', inVerona, { report_type: 'norms' }));
      const posted = await inChannel('iago', moderationId);
      expect(posted.map((m) => m.content.split(' reported a message')[0])).toEqual([mention('polonius', 'Polonius'), `@_**Watcher|${bot.userId}**`]);
    });
  });
});
