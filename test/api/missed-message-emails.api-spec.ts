import { MAIL_OUTBOX, type MailOutboxPort, MissedMessageEmails } from '@app/application';
import { ProjectionRebuilder } from '@app/projections';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';
import { TestSmtpServer } from '../support/smtp-test-server';

/**
 * Missed-message email notifications (Zulip's missedmessage_emails worker and
 * handle_missedmessage_emails; docs/email.md, "Missed messages"), through HTTP: messages sent to a
 * user who is away are mailed once their batch is due, unless read meanwhile.
 */
describe('missed-message emails', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] })));
  afterEach(() => api.close());
  const { id, send, sendToChannel, createChannel } = personaHelpers(() => api);
  const email = (name: string) => api.user(name).email;

  const missed = () => api.background.get(MissedMessageEmails);
  /** The reactor (in the worker of the split layout) has seen every message sent so far. */
  const settled = async () => missed().handledThrough(await api.eventStore.headPosition());
  const setSettings = async (who: string, settings: Record<string, unknown>) => expectSuccess(await api.as(who).patch('/api/v1/settings', settings));
  const beActive = async (who: string) => expectSuccess(await api.as(who).post('/api/v1/users/me/presence', { status: 'active' }));
  /** Time passes beyond the batching period, and the due batches are mailed. */
  const passTime = async (seconds: number) => {
    await settled();
    api.clock.advance(seconds * 1000);
    await missed().sendDue();
  };
  /** Missed-message mails queued for `who` so far (the outbox, whether sent yet or not). */
  const queuedFor = async (who: string) =>
    (await api.background.get<MailOutboxPort>(MAIL_OUTBOX).list()).filter((m) => m.kind === 'missed_message' && m.to === email(who));

  beforeEach(async () => {
    // Cordelia is away (never pinged presence); a short batching period keeps the tests quick.
    await setSettings('cordelia', { email_notifications_batching_period_seconds: 10 });
  });

  it('mails a direct message to an away user once the batching period is over, every message of the batch in one mail', async () => {
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Are you there?' });
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Second **thought**' });
    await passTime(5);
    expect(await queuedFor('cordelia')).toEqual([]);
    expect(await missed().pending(id('cordelia'))).toHaveLength(2);

    await passTime(6);
    const [mail, ...more] = await api.mailsTo(email('cordelia'), { kind: 'missed_message' });
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ subject: 'DMs with King Hamlet', fromName: 'Zulip notifications', from: expect.stringMatching(/^noreply@/) });
    expect(mail.text).toContain('You and King Hamlet');
    expect(mail.text).toContain('King Hamlet:\n> Are you there?\n> Second **thought**');
    expect(mail.text).toMatch(new RegExp(`Reply in Zulip: http\\S+/#narrow/dm/${id('hamlet')}-King-Hamlet`));
    expect(mail.html).toContain('<strong>thought</strong>');
    expect(await missed().pending()).toEqual([]);
    // Nothing more goes later.
    await passTime(60);
    expect(await queuedFor('cordelia')).toHaveLength(1);
  });

  it('mails nothing for messages read before the batch is due', async () => {
    const messageId = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Read me' });
    expectSuccess(await api.as('cordelia').post('/api/v1/messages/flags', { messages: JSON.stringify([messageId]), op: 'add', flag: 'read' }));
    await passTime(11);
    expect(await queuedFor('cordelia')).toEqual([]);
    expect(await missed().pending()).toEqual([]);
  });

  it('mails nothing to a user with an active client, nor to the sender', async () => {
    await beActive('cordelia');
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'You are here' });
    await passTime(11);
    expect(await queuedFor('cordelia')).toEqual([]);
    expect(await queuedFor('hamlet')).toEqual([]);
  });

  it('mails nothing with enable_offline_email_notifications off', async () => {
    await setSettings('cordelia', { enable_offline_email_notifications: false });
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Quiet, please' });
    await passTime(11);
    expect(await queuedFor('cordelia')).toEqual([]);
  });

  it('mails channel messages only where the user asked for email, and mentions always; one mail per conversation', async () => {
    await createChannel('hamlet', 'Denmark', { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
    await sendToChannel('hamlet', 'Denmark', 'castle', 'Nobody asked for this by email');
    await passTime(11);
    expect(await queuedFor('cordelia')).toEqual([]);

    // The channel's own setting (enable_stream_email_notifications is off by default).
    const denmark = await api.channelId('Denmark', 'cordelia');
    expectSuccess(
      await api.as('cordelia').post('/api/v1/users/me/subscriptions/properties', {
        subscription_data: JSON.stringify([{ stream_id: denmark, property: 'email_notifications', value: true }]),
      }),
    );
    await sendToChannel('hamlet', 'Denmark', 'castle', 'The ghost walks tonight');
    await sendToChannel('hamlet', 'Denmark', 'moat', '@**Cordelia Lear** mind the moat');
    await passTime(11);
    const mails = await api.mailsTo(email('cordelia'), { kind: 'missed_message', count: 2 });
    expect(mails.map((m) => m.subject).sort()).toEqual(['#Denmark > castle', '#Denmark > moat']);
    const castle = mails.find((m) => m.subject === '#Denmark > castle')!;
    expect(castle.text).toContain('> The ghost walks tonight');
    expect(castle.text).not.toContain('Nobody asked');
    expect(castle.text).toContain('You are receiving this because you have email notifications enabled for #Denmark.');
    expect(mails.find((m) => m.subject === '#Denmark > moat')!.text).toContain('You are receiving this because you were personally mentioned.');
  });

  it('decides each message with the settings and topic policies of its moment (changes between messages count)', async () => {
    await createChannel('hamlet', 'Denmark', { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
    const denmark = await api.channelId('Denmark', 'cordelia');
    const triggers = async () => (await missed().pending(id('cordelia'))).map((row) => [row.message_id, row.trigger]);
    const one = await sendToChannel('hamlet', 'Denmark', 'castle', 'one');
    await settled();
    await setSettings('cordelia', { enable_stream_email_notifications: true });
    const two = await sendToChannel('hamlet', 'Denmark', 'castle', 'two');
    await settled();
    await setSettings('cordelia', { enable_stream_email_notifications: false });
    expectSuccess(await api.as('cordelia').post('/api/v1/user_topics', { stream_id: denmark, topic: 'castle', visibility_policy: 3 }));
    const three = await sendToChannel('hamlet', 'Denmark', 'castle', 'three');
    const four = await sendToChannel('hamlet', 'Denmark', 'moat', 'four');
    await settled();
    expectSuccess(await api.as('cordelia').post('/api/v1/user_topics', { stream_id: denmark, topic: 'castle', visibility_policy: 0 }));
    const five = await sendToChannel('hamlet', 'Denmark', 'castle', 'five');
    await settled();
    expect([one, four, five].every((m) => typeof m === 'number')).toBe(true);
    expect(await triggers()).toEqual([
      [two, 'stream_email_notify'],
      [three, 'followed_topic_email_notify'],
    ]);
  });

  it('mails a mention added by an edit, once; an edit of a direct message mails nothing more', async () => {
    await createChannel('hamlet', 'Denmark', { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
    const messageId = await sendToChannel('hamlet', 'Denmark', 'castle', 'Where is everyone?');
    const direct = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Psst' });
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'Where is @**Cordelia Lear**?' }));
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'Where is @**Cordelia Lear**, really?' }));
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${direct}`, { content: 'Psst, @**Cordelia Lear**' }));
    await passTime(11);
    const mails = await api.mailsTo(email('cordelia'), { kind: 'missed_message', count: 2 });
    expect(mails.map((m) => m.subject).sort()).toEqual(['#Denmark > castle', 'DMs with King Hamlet']);
    expect(mails.find((m) => m.subject === '#Denmark > castle')!.text).toContain('> Where is @**Cordelia Lear**, really?');
    await passTime(60);
    expect(await queuedFor('cordelia')).toHaveLength(2);
  });

  it('leaves the content out with message_content_in_email_notifications off, and names the organization as the policy says', async () => {
    await setSettings('cordelia', { message_content_in_email_notifications: false, realm_name_in_email_notifications_policy: 2 });
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Secret plans' });
    await passTime(11);
    const [mail] = await api.mailsTo(email('cordelia'), { kind: 'missed_message' });
    expect(mail.subject).toBe('New messages [Acme Corp]');
    expect(mail.text).not.toContain('Secret plans');
    expect(mail.html).not.toContain('Secret plans');
  });

  it('names a group conversation by its other participants', async () => {
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia'), id('iago')]), content: 'All of us' });
    await passTime(11);
    const [mail] = await api.mailsTo(email('cordelia'), { kind: 'missed_message' });
    expect(mail.subject).toMatch(/^Group DMs with (King Hamlet and Iago|Iago and King Hamlet)$/);
  });

  it('a restart between the message and the due time still mails once', async () => {
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Before the restart' });
    await settled();
    await api.restart();
    // The reactor resumes from its checkpoint: the message is not counted twice.
    expect(await missed().pending(id('cordelia'))).toHaveLength(1);
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'After the restart' });
    await passTime(11);
    const [mail, ...more] = await api.mailsTo(email('cordelia'), { kind: 'missed_message' });
    expect(more).toEqual([]);
    expect(mail.text).toContain('> Before the restart\n> After the restart');
    await api.restart();
    await passTime(60);
    expect(await queuedFor('cordelia')).toHaveLength(1);
  });

  it('carries on after a rebuild of every read model switches the read store to a fresh copy', async () => {
    expectSuccess(await api.as('iago').post('/api/v1/svc/projections/rebuild', {}));
    await api.app.get(ProjectionRebuilder).settled();
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'After the rebuild' });
    await passTime(11);
    const [mail] = await api.mailsTo(email('cordelia'), { kind: 'missed_message' });
    expect(mail.text).toContain('> After the rebuild');
  });

  it('mails nothing for a message deleted before the batch is due', async () => {
    const messageId = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'Oops' });
    expectSuccess(await api.as('hamlet').delete(`/api/v1/messages/${messageId}`));
    await passTime(11);
    expect(await queuedFor('cordelia')).toEqual([]);
  });
});

describe('missed-message emails through a real SMTP server', () => {
  let smtp: TestSmtpServer;
  let api: ApiTestClient;
  beforeEach(async () => {
    smtp = await TestSmtpServer.start();
    api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'], config: { email: smtp.emailConfig() } });
  });
  afterEach(async () => {
    await api.close();
    await smtp.stop();
  });

  it('hands the mail of a missed direct message to the SMTP server, addressed to the recipient', async () => {
    expectSuccess(await api.as('cordelia').patch('/api/v1/settings', { email_notifications_batching_period_seconds: 1 }));
    expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([api.user('cordelia').userId]), content: 'Over SMTP' }));
    const missed = api.background.get(MissedMessageEmails);
    await missed.handledThrough(await api.eventStore.headPosition());
    api.clock.advance(2000);
    await missed.sendDue();
    const [received] = await smtp.waitForMails(1);
    expect(received).toMatchObject({ from: 'noreply@acme.test', to: ['cordelia@acme.test'], subject: 'DMs with King Hamlet' });
    expect(received.raw).toMatch(/^From: Zulip notifications <noreply@acme\.test>$/m);
    expect(received.body).toContain('> Over SMTP');
  });
});
