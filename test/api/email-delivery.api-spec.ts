import { Test } from '@nestjs/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { APP_CONFIG, MAIL_OUTBOX, Mailer, MailDelivery, type MailOutboxPort, type OutboxMail } from '@app/application';
import type { AppConfig } from '@app/config';
import { FakeClock, makeTempDir, testConfig } from '@app/testing';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiTestClient } from '../support';
import { eventually, TestSmtpServer } from '../support/smtp-test-server';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { CliModule } from '../../apps/cli/src/cli.module';

/** Retries within a test's time: 50 ms, then doubling up to 200 ms; 6 attempts. */
const FAST_RETRY = { firstDelayMs: 50, maxDelayMs: 200, maxAttempts: 6, pollMs: 100 };
const LOGIN = { user: 'chat-server', password: 's3cret-smtp' };

const mail = (over: Partial<Parameters<Mailer['send']>[0]> = {}) => ({
  kind: 'test_mail',
  to: 'hamlet@acme.test',
  subject: 'A test mail',
  text: 'Hello Hamlet, here is a link: http://127.0.0.1/accounts/confirm_new_email/abcdefghijklmnopqrstuvwx',
  ...over,
});

const outboxOf = (app: INestApplicationContext) => app.get<MailOutboxPort>(MAIL_OUTBOX);
const statusOf = (app: INestApplicationContext, id: string, status: OutboxMail['status']) =>
  eventually(async () => {
    const m = await outboxOf(app).get(id);
    return m?.status === status ? m : undefined;
  }, 10_000, `mail ${id} to be ${status}`);

describe('email delivery (a real SMTP server on 127.0.0.1)', () => {
  let smtp: TestSmtpServer;
  let api: ApiTestClient;

  beforeEach(async () => {
    smtp = await TestSmtpServer.start({ login: LOGIN });
  });
  afterEach(async () => {
    await api?.close();
    await smtp.stop();
  });

  const startApi = async (config: Partial<AppConfig> = {}) => {
    api = await ApiTestClient.start({ personas: ['hamlet'], config: { email: { ...smtp.emailConfig() }, mailRetry: FAST_RETRY, ...config } });
    return api;
  };

  it('hands a queued mail to the SMTP server, logged in, from NOREPLY_EMAIL_ADDRESS, and keeps only its envelope', async () => {
    await startApi();
    const id = await api.background.get(Mailer).send(mail({ fromName: 'Zulip Account Security' }));
    const [received] = await smtp.waitForMails(1);
    expect(received).toMatchObject({ from: 'noreply@acme.test', to: ['hamlet@acme.test'], subject: 'A test mail' });
    expect(received.raw).toMatch(/^From: Zulip Account Security <noreply@acme\.test>$/m);
    expect(received.messageId).toBe(`<${id}@acme.test>`);
    expect(received.body).toContain('http://127.0.0.1/accounts/confirm_new_email/abcdefghijklmnopqrstuvwx');
    const sent = await statusOf(api.app, id, 'sent');
    expect(sent).toMatchObject({ attempts: 1, text: '', lastError: null, to: 'hamlet@acme.test', subject: 'A test mail' });
    expect(sent.sentAt).toEqual(expect.any(Number));
  });

  it('does not retry a mail the SMTP server refuses for good (5xx): it is recorded as failed', async () => {
    smtp.refuseWith({ code: 550, message: 'No such user here', at: 'rcpt' });
    await startApi();
    const id = await api.app.get(Mailer).send(mail({ to: 'nobody@acme.test' }));
    const failed = await statusOf(api.app, id, 'failed');
    expect(failed.lastError).toContain('550');
    expect(failed).toMatchObject({ attempts: 1, text: '' });
    // Several retry periods later: still one attempt.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(smtp.attempts).toEqual(['nobody@acme.test']);
    expect(smtp.received).toEqual([]);
  });

  it('does not retry a message refused after DATA (5xx) either', async () => {
    smtp.refuseWith({ code: 554, message: 'Message rejected as spam', at: 'data' });
    await startApi();
    const id = await api.app.get(Mailer).send(mail());
    expect((await statusOf(api.app, id, 'failed')).lastError).toContain('554');
    expect(smtp.attempts).toHaveLength(1);
  });

  it('retries a mail the SMTP server defers (4xx) until it takes it', async () => {
    smtp.refuseWith({ code: 451, message: 'Try again later', at: 'rcpt' });
    await startApi();
    const id = await api.app.get(Mailer).send(mail());
    await eventually(() => (smtp.attempts.length >= 2 ? true : undefined), 10_000, 'a second attempt');
    const waiting = await outboxOf(api.app).get(id);
    expect(waiting?.status === 'pending' || waiting?.status === 'sending').toBe(true);
    expect(waiting?.lastError).toContain('451');
    smtp.refuseWith(null);
    await smtp.waitForMails(1);
    expect((await statusOf(api.app, id, 'sent')).attempts).toBeGreaterThanOrEqual(3);
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps retrying while the SMTP server is away, and sends once it is back', async () => {
    await startApi();
    await smtp.stop();
    const id = await api.app.get(Mailer).send(mail());
    const retried = await eventually(async () => {
      const m = await outboxOf(api.app).get(id);
      return m && m.attempts >= 2 && m.status === 'pending' ? m : undefined;
    }, 10_000, 'two failed attempts');
    expect(retried.lastError).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/);
    await smtp.start();
    await smtp.waitForMails(1);
    await statusOf(api.app, id, 'sent');
    expect(smtp.received).toHaveLength(1);
  });

  it('retries a failed login (the operator fixes the password), but gives up after the last attempt', async () => {
    await startApi({ email: { ...smtp.emailConfig(), password: 'wrong' } });
    const id = await api.app.get(Mailer).send(mail());
    const failed = await statusOf(api.app, id, 'failed');
    expect(failed.attempts).toBe(FAST_RETRY.maxAttempts);
    expect(failed.lastError).toMatch(/gave up after 6 attempts: EAUTH/);
    expect(smtp.received).toEqual([]);
  });

  it('queues a mail once per id (a retried command)', async () => {
    await startApi();
    const mailer = api.app.get(Mailer);
    await mailer.send(mail({ id: 'same-mail' }));
    await mailer.send(mail({ id: 'same-mail' }));
    await smtp.waitForMails(1);
    await statusOf(api.app, 'same-mail', 'sent');
    await api.app.get(MailDelivery).idle();
    expect(smtp.received).toHaveLength(1);
  });
});

describe('email delivery across restarts and processes', () => {
  let smtp: TestSmtpServer;
  const dir = makeTempDir('team-chat-mail-');
  const contexts: INestApplicationContext[] = [];
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
    await smtp.stop();
  });
  afterAll(() => dir.remove());

  const config = (): AppConfig => testConfig(dir.path, { email: smtp.emailConfig(), mailRetry: FAST_RETRY });
  /** A worker process (it sends) or a CLI process (it only queues, as an API process beside a worker). */
  const open = async (module: 'worker' | 'cli') => {
    const options = { config: config(), clock: new FakeClock() };
    const ref = await Test.createTestingModule({ imports: [module === 'worker' ? WorkerModule.forRoot(options) : CliModule.forRoot(options)] }).compile();
    await ref.init();
    contexts.push(ref);
    return ref;
  };
  const close = async (ref: INestApplicationContext) => {
    contexts.splice(contexts.indexOf(ref), 1);
    await ref.close();
  };

  it('sends after a restart a mail queued before it', async () => {
    smtp = await TestSmtpServer.start();
    await smtp.stop();
    const first = await open('worker');
    const id = await first.get(Mailer).send(mail({ subject: 'Queued before the restart' }));
    await eventually(async () => ((await outboxOf(first).get(id))?.attempts ? true : undefined));
    await first.get(MailDelivery).idle();
    await close(first);
    expect(statSync(join(dir.path, 'mail-outbox.sqlite')).mode & 0o777).toBe(0o600);

    await smtp.start();
    const second = await open('worker');
    const [received] = await smtp.waitForMails(1);
    expect(received.subject).toBe('Queued before the restart');
    await statusOf(second, id, 'sent');
  });

  it('a process that does not run the jobs only queues; the worker sends', async () => {
    smtp = await TestSmtpServer.start();
    const api = await open('cli');
    const id = await api.get(Mailer).send(mail({ subject: 'From an API process' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received).toEqual([]);
    expect((await outboxOf(api).get(id))?.status).toBe('pending');
    const worker = await open('worker');
    await smtp.waitForMails(1);
    await statusOf(worker, id, 'sent');
  });

  it('claims again a mail whose sender died mid-send (its claim lapsed), and sends it', async () => {
    smtp = await TestSmtpServer.start();
    const api = await open('cli');
    const outbox = outboxOf(api);
    const id = await api.get(Mailer).send(mail({ subject: 'Orphaned' }));
    // A process claims it and dies before the outcome: the claim runs out in 1 ms.
    expect((await outbox.claimDue(Date.now(), 1, 10)).map((m) => m.id)).toEqual([id]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const worker = await open('worker');
    const [received] = await smtp.waitForMails(1);
    expect(received.subject).toBe('Orphaned');
    expect((await statusOf(worker, id, 'sent')).attempts).toBe(2);
  });
});

describe('email without an SMTP server (EMAIL_HOST unset)', () => {
  let api: ApiTestClient;
  afterEach(() => api?.close());

  it('writes each mail to DATA_DIR/emails, owner-only', async () => {
    api = await ApiTestClient.start({ personas: ['hamlet'], config: { mailRetry: FAST_RETRY } });
    const { dataDir } = api.app.get<AppConfig>(APP_CONFIG);
    const id = await api.app.get(Mailer).send(mail());
    await statusOf(api.app, id, 'sent');
    const folder = join(dataDir, 'emails');
    expect(existsSync(folder)).toBe(true);
    const files = readdirSync(folder).sort();
    expect(files).toEqual([expect.stringMatching(new RegExp(`-${id}\\.eml$`)), expect.stringMatching(new RegExp(`-${id}\\.json$`))]);
    for (const f of files) expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });
});

describe('GET /emails (development servers: the mails written to DATA_DIR/emails)', () => {
  let api: ApiTestClient;
  afterEach(() => api?.close());

  it('lists the mails, newest first, with their links clickable and their source; /emails/clear empties it', async () => {
    api = await ApiTestClient.start({ personas: ['hamlet'], config: { env: 'development', devBootstrap: false, mailRetry: FAST_RETRY } });
    const mailer = api.app.get(Mailer);
    const first = await mailer.send(mail({ subject: 'First <mail>' }));
    await statusOf(api.app, first, 'sent');
    const second = await mailer.send(mail({ subject: 'Second mail', fromName: 'Zulip Account Security' }));
    await statusOf(api.app, second, 'sent');

    const listing = await api.http.get('/emails');
    expect(listing.status).toBe(200);
    expect(listing.headers['content-type']).toMatch(/text\/html/);
    expect(listing.text.indexOf('Second mail')).toBeLessThan(listing.text.indexOf('First &lt;mail&gt;'));
    expect(listing.text).not.toContain('First <mail>');
    expect(listing.text).toContain('<a href="http://127.0.0.1/accounts/confirm_new_email/abcdefghijklmnopqrstuvwx">');
    // NOREPLY_EMAIL_ADDRESS defaults to noreply@ the host of EXTERNAL_URL.
    expect(listing.text).toContain('Zulip Account Security &lt;noreply@127.0.0.1&gt;');

    const source = /href="(\/emails\/raw\/[^"]+)"/.exec(listing.text)![1];
    const raw = await api.http.get(decodeURIComponent(source));
    expect(raw.status).toBe(200);
    expect(raw.text).toMatch(/^Subject: Second mail$/m);
    expect((await api.http.get('/emails/raw/..%2Fmail-outbox.sqlite')).status).toBe(404);

    const cleared = await api.http.get('/emails/clear');
    expect(cleared.status).toBe(303);
    expect((await api.http.get('/emails')).text).toContain('No mails yet.');
  });

  it('is not served outside development', async () => {
    api = await ApiTestClient.start({ personas: ['hamlet'], config: { mailRetry: FAST_RETRY } });
    const id = await api.app.get(Mailer).send(mail());
    await statusOf(api.app, id, 'sent');
    const listing = await api.http.get('/emails');
    expect(listing.status).toBe(404);
    expect(listing.text).not.toContain('A test mail');
    expect((await api.http.get('/emails/clear')).status).toBe(404);
  });
});
