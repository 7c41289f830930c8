import { APP_CONFIG, MAIL_OUTBOX, type MailOutboxPort, ProjectionWaiter, type UpcastingEventStore } from '@app/application';
import type { AppConfig } from '@app/config';
import { CURRENT_SCHEMA_VERSION, userSettingsStream } from '@app/domain';
import { personaHelpers } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiTestClient, expectSuccess } from '../support';
import { eventually, type ReceivedMail, TestSmtpServer } from '../support/smtp-test-server';

/**
 * The change of address (PATCH /settings `email`) through its mails, against a real SMTP server
 * (≈ zerver/tests/test_email_change.py): the confirmation link mailed to the new address, the page
 * it opens, Zulip's rules at both ends, the old address told afterwards, and the key kept out of
 * the log.
 */
const SETTINGS = '/api/v1/settings';
const FAST_RETRY = { firstDelayMs: 50, maxDelayMs: 200, maxAttempts: 6, pollMs: 100 };
const LINK = /(http:\/\/127\.0\.0\.1:\d+\/accounts\/confirm_new_email\/([a-z0-9]{24})\/)/;

describe('email change confirmation (mails through a real SMTP server)', () => {
  let smtp: TestSmtpServer;
  let api: ApiTestClient;
  beforeEach(async () => {
    smtp = await TestSmtpServer.start();
    api = await ApiTestClient.start({ config: { email: smtp.emailConfig(), mailRetry: FAST_RETRY, externalUrl: 'http://127.0.0.1:9991' } });
  });
  afterEach(async () => {
    await api.close();
    await smtp.stop();
  });

  const { id, refused: expectRefused } = personaHelpers(() => api);
  const mailsTo = async (to: string, count = 1): Promise<ReceivedMail[]> => {
    await eventually(() => (smtp.received.filter((m) => m.to.includes(to)).length >= count ? true : undefined), 10_000, `${count} mail(s) to ${to}`);
    return smtp.received.filter((m) => m.to.includes(to));
  };
  const linkIn = (mail: ReceivedMail) => {
    const match = LINK.exec(mail.body);
    if (!match) throw new Error(`no confirmation link in ${mail.body}`);
    return { url: match[1], key: match[2], path: new URL(match[1]).pathname };
  };
  const deliveryEmail = async (who: string) => expectSuccess(await api.as(who).get('/api/v1/users/me')).delivery_email as string;
  /** Follows a link that changes `who`'s address, then authenticates `who` with the new one. */
  const follow = async (path: string, who: string, newEmail: string) => {
    const page = await api.http.get(path);
    expect(page.status).toBe(200);
    api.credentials.set(who, { ...api.user(who), email: newEmail });
    expect(await deliveryEmail(who)).toBe(newEmail);
  };

  it('mails the link to the new address; following it changes the address and tells the old one', async () => {
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
    const [confirm] = await mailsTo('prince@acme.test');
    expect(confirm).toMatchObject({ from: 'noreply@acme.test', subject: 'Verify your new email address for 127.0.0.1:9991' });
    expect(confirm.raw).toMatch(/^From: Zulip account security <noreply@acme\.test>$/m);
    expect(confirm.body).toContain('We received a request to change the email address for the Zulip account on http://127.0.0.1:9991 from hamlet@acme.test to prince@acme.test.');
    const { path } = linkIn(confirm);
    expect(await deliveryEmail('hamlet')).toBe('hamlet@acme.test');
    expect(smtp.received.filter((m) => m.to.includes('hamlet@acme.test'))).toEqual([]);

    const page = await api.http.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('changed from <a href="mailto:hamlet@acme.test">hamlet@acme.test</a> to <a href="mailto:prince@acme.test">prince@acme.test</a>');
    const { apiKey } = api.user('hamlet');
    expect(expectSuccess(await api.http.get('/api/v1/users/me').auth('prince@acme.test', apiKey)).delivery_email).toBe('prince@acme.test');

    const [notice] = await mailsTo('hamlet@acme.test');
    expect(notice).toMatchObject({ subject: 'Zulip email changed for Acme Corp' });
    expect(notice.raw).toMatch(/^From: Zulip account security <noreply@acme\.test>$/m);
    expect(notice.body).toContain('The email associated with your Zulip account was recently changed to prince@acme.test.');
    expect(notice.body).not.toMatch(LINK);
  });

  it('keeps the key out of the log, the read models and the outbox once sent', async () => {
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
    const { key, path } = linkIn((await mailsTo('prince@acme.test'))[0]);
    expect((await api.http.get(path)).status).toBe(200);
    await mailsTo('hamlet@acme.test');

    const events = await api.eventStore.readAll({ maxCount: 100_000 });
    const requested = events.find((e) => e.type === 'EmailChangeRequested');
    expect(requested?.data).toEqual(expect.objectContaining({ keyDigest: expect.stringMatching(/^[0-9a-f]{64}$/), newEmail: 'prince@acme.test' }));
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(key);
    const outbox = api.app.get<MailOutboxPort>(MAIL_OUTBOX);
    const sent = await eventually(async () => {
      const all = await outbox.list();
      return all.length === 2 && all.every((m) => m.status === 'sent') ? all : undefined;
    });
    expect(JSON.stringify(sent)).not.toContain(key);
    // Every byte of the data directory (the event log, the read models, the outbox, their WAL files).
    const { dataDir } = api.app.get<AppConfig>(APP_CONFIG);
    for (const file of readdirSync(dataDir)) {
      const path = join(dataDir, file);
      if (statSync(path).isFile()) expect({ file, hasKey: readFileSync(path).includes(key) }).toEqual({ file, hasKey: false });
    }
  });

  it('a second request revokes the first link: it answers the expired page, and changes nothing', async () => {
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
    const first = linkIn((await mailsTo('prince@acme.test'))[0]);
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'dane@acme.test' }));
    const second = linkIn((await mailsTo('dane@acme.test'))[0]);
    const revoked = await api.http.get(first.path);
    expect(revoked.status).toBe(404);
    expect(revoked.text).toContain('The confirmation link has expired or been deactivated.');
    expect(await deliveryEmail('hamlet')).toBe('hamlet@acme.test');
    await follow(second.path, 'hamlet', 'dane@acme.test');
  });

  it('a link expires after a day', async () => {
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
    const { path } = linkIn((await mailsTo('prince@acme.test'))[0]);
    api.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const expired = await api.http.get(path);
    expect(expired.status).toBe(404);
    expect(expired.text).toContain('expired');
    expect(await deliveryEmail('hamlet')).toBe('hamlet@acme.test');
    expect(smtp.received.filter((m) => m.to.includes('hamlet@acme.test'))).toEqual([]);
  });

  describe('email_changes_disabled', () => {
    it('is an organization setting administrators change, with its realm event and /register value', async () => {
      await expectRefused(await api.as('hamlet').patch('/api/v1/realm', { email_changes_disabled: true }), 'Must be an organization administrator');
      const queue = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: JSON.stringify(['realm']) }));
      expect(queue.realm_email_changes_disabled).toBe(false);
      expect(expectSuccess(await api.as('iago').patch('/api/v1/realm', { email_changes_disabled: true }))).toMatchObject({ email_changes_disabled: true });
      const { events } = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: queue.queue_id, last_event_id: -1, dont_block: true }));
      expect(events).toContainEqual(expect.objectContaining({ type: 'realm', op: 'update', property: 'email_changes_disabled', value: true }));
      expect(expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: JSON.stringify(['realm']) })).realm_email_changes_disabled).toBe(true);
    });

    it('refuses members a change of address, mailing nothing; administrators still may', async () => {
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { email_changes_disabled: true }));
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }), 'Email address changes are disabled in this organization.');
      expect(await api.newEvents()).toEqual([]);
      expectSuccess(await api.as('iago').patch(SETTINGS, { email: 'iago-new@acme.test' }));
      const { path } = linkIn((await mailsTo('iago-new@acme.test'))[0]);
      await follow(path, 'iago', 'iago-new@acme.test');
      expect(smtp.received.filter((m) => m.to.includes('prince@acme.test'))).toEqual([]);
    });

    it('refuses a link followed after changes were disabled meanwhile, and keeps it for when they are allowed again', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
      const { path } = linkIn((await mailsTo('prince@acme.test'))[0]);
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { email_changes_disabled: true }));
      const page = await api.http.get(path);
      expect(page.status).toBe(400);
      expect(page.text).toContain('Email address changes are disabled in this organization.');
      expect(await deliveryEmail('hamlet')).toBe('hamlet@acme.test');
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { email_changes_disabled: false }));
      await follow(path, 'hamlet', 'prince@acme.test');
    });
  });

  it('refuses the link of an account deactivated meanwhile', async () => {
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
    const { path } = linkIn((await mailsTo('prince@acme.test'))[0]);
    expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('hamlet')}`));
    const page = await api.http.get(path);
    expect(page.status).toBe(401);
    expect(page.text).toContain('Account is deactivated');
  });

  it('still honours a link recorded before the key left the log (a version 1 event holding the key)', async () => {
    const key = 'abcdefghijklmnopqrstuvwx';
    const stream = userSettingsStream(id('hamlet'));
    const { revision } = await api.eventStore.readStream(stream);
    // Appended as an older server wrote it, below the upcasting store.
    const raw = (api.eventStore as UpcastingEventStore).raw;
    const { position } = await raw.appendToStream(
      stream,
      [{ id: randomUUID(), type: 'EmailChangeRequested', metadata: { schemaVersion: CURRENT_SCHEMA_VERSION }, data: {
        realmId: api.realmId, userId: id('hamlet'), oldEmail: 'hamlet@acme.test', newEmail: 'prince@acme.test', token: key,
        expiresAt: new Date(api.clock.now().getTime() + 3_600_000).toISOString(), revokedTokens: [], actorId: id('hamlet'), at: api.clock.now().toISOString(),
      } }],
      { expectedRevision: revision },
    );
    await api.app.get(ProjectionWaiter).waitFor(position);
    await follow(`/accounts/confirm_new_email/${key}/`, 'hamlet', 'prince@acme.test');
  });
});

describe('email change rate limit (email_change_by_user)', () => {
  let api: ApiTestClient;
  afterEach(() => api.close());
  const start = async (emailChange: { requests: number; windowSeconds: number }[]) =>
    (api = await ApiTestClient.start({ config: { rateLimits: { perUser: { requests: 0, windowSeconds: 60 }, perIp: { requests: 0, windowSeconds: 60 }, emailChange } } }));
  const { refused } = personaHelpers(() => api);
  const ZULIP_RULES = [{ requests: 2, windowSeconds: 3600 }, { requests: 5, windowSeconds: 86400 }];

  it("allows two requests an hour per user (Zulip's rule), then answers 429 RATE_LIMIT_HIT and records nothing", async () => {
    await start(ZULIP_RULES);
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'one@acme.test' }));
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'two@acme.test' }));
    await api.markEvents();
    const body = await refused(await api.as('hamlet').patch(SETTINGS, { email: 'three@acme.test' }), 'API usage exceeded rate limit', { code: 'RATE_LIMIT_HIT', status: 429 });
    expect(body['retry-after']).toBeGreaterThan(0);
    expect(await api.mailsTo('three@acme.test', { kind: 'confirm_new_email', timeoutMs: 300 }).catch(() => [])).toEqual([]);
    // Per user; other settings do not count.
    expectSuccess(await api.as('cordelia').patch(SETTINGS, { email: 'cordelia2@acme.test' }));
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { enter_sends: 'true' }));
  });

  it('checks the address before counting, as Zulip: an invalid request is refused for what it is', async () => {
    await start(ZULIP_RULES);
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'one@acme.test' }));
    expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'two@acme.test' }));
    await api.markEvents();
    await refused(await api.as('hamlet').patch(SETTINGS, { email: 'iago@acme.test' }), 'Already has an account.');
  });

  it('applies every rule: here a daily limit of three', async () => {
    await start([{ requests: 10, windowSeconds: 3600 }, { requests: 3, windowSeconds: 86400 }]);
    for (const n of [1, 2, 3]) expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: `new${n}@acme.test` }));
    await api.markEvents();
    await refused(await api.as('hamlet').patch(SETTINGS, { email: 'new4@acme.test' }), 'API usage exceeded rate limit', { code: 'RATE_LIMIT_HIT', status: 429 });
  });

  it('is off in the test configuration', async () => {
    api = await ApiTestClient.start();
    for (const n of [1, 2, 3, 4, 5, 6]) expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: `free${n}@acme.test` }));
  });
});
