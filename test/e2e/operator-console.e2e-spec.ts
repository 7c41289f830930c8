import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { ProjectionRebuilder } from '@app/projections';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * The operator console (/svc/console, issue #22) in a real browser: Debian's headless Chromium
 * driven by playwright-core against a listening server. Sign-in, the projections table, a rebuild
 * watched to completion, and an audit-history lookup.
 */
/** Debian's package (`apt-get install -y chromium`); CHROMIUM_PATH names another build. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  // eslint-disable-next-line no-console
  console.log(`operator console browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`);
}
const describeWithChromium = available ? describe : describe.skip;

jest.setTimeout(90_000);

describeWithChromium('the operator console in headless Chromium', () => {
  let api: ApiTestClient;
  let siteUrl: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  /** Lets a rebuild held before its switch go on (also on a failure, so that the app can close). */
  let release: () => void = () => undefined;

  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] });
    await api.app.listen(0, '127.0.0.1');
    siteUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
  });

  afterAll(async () => {
    release();
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.close();
  });

  const signIn = async (who: string, key = api.user(who).apiKey) => {
    await page.fill('#email', api.user(who).email);
    await page.fill('#api-key', key);
    await page.click('#sign-in button[type=submit]');
  };

  it('refuses a wrong key and a non-administrator, then signs an administrator in with the key in memory only', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${siteUrl}/svc/console`);
    expect(await page.title()).toBe('Operator console · team-chat');

    await signIn('iago', 'x'.repeat(32));
    await expectText('#sign-in-error', 'Unknown email address or API key.');
    await signIn('hamlet');
    await expectText('#sign-in-error', 'Must be an organization administrator');
    expect(await page.isVisible('#console')).toBe(false);

    await signIn('iago');
    await page.waitForSelector('#console', { state: 'visible' });
    expect(await page.textContent('#signed-in')).toBe(api.user('iago').email);
    expect(await page.inputValue('#api-key')).toBe('');
    // Nothing kept: no storage, no cookie, nothing in the URL.
    const kept = await page.evaluate('({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie, url: location.href })');
    expect(kept).toEqual({ local: 0, session: 0, cookie: '', url: `${siteUrl}/svc/console` });
    expect((await browser.cookies()).length).toBe(0);

    // Projections with checkpoint, lag and copy.
    const users = await rowOf('users');
    expect(users).toEqual(['users', 'users', expect.stringMatching(/^[\d,]+$/), '0', 'read-models.sqlite']);
    expect(await rowOf('user_messages')).toEqual(['user_messages', '(per-user message state)', expect.stringMatching(/^[\d,]+$/), '0', 'read-models.sqlite']);
    expect(errors).toEqual(expect.not.arrayContaining([expect.stringMatching(/Content Security Policy|TypeError|ReferenceError/)]));
  });

  it('starts a rebuild and shows its progress and ETA until it is done', async () => {
    // Some history to replay.
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Rebuilt' }] }));
    for (let i = 0; i < 20; i++) expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Rebuilt', topic: 'replay', content: `message ${i}` }));

    // The app's own rebuilder holds before its switch until the page has shown the progress.
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    (api.app.get(ProjectionRebuilder) as unknown as { options: { beforeSwitch?: () => Promise<void> } }).options.beforeSwitch = async () => {
      held = true;
      await released;
    };

    await page.selectOption('#rebuild-target', 'all');
    await page.click('#rebuild-start');
    // Polled progress, up to the whole log replayed (the rebuild then waits for its switch).
    await waitForText('#rebuild-status', /^Rebuilding all: [\d,]+ of [\d,]+ events \(100 %\) · [\d,]+ events\/s · ETA (\d+ s|…)$/);
    expect(held).toBe(true);
    const during = await page.textContent('#rebuild-status');
    const [, done, total] = /([\d,]+) of ([\d,]+) events/.exec(during!)!.map((n) => n.replace(/,/g, ''));
    expect(Number(total)).toBeGreaterThan(20);
    expect(Number(done)).toBe(Number(total));
    expect(await page.getAttribute('#rebuild-bar', 'aria-valuenow')).toBe('100');
    expect(await page.isDisabled('#rebuild-start')).toBe(true);

    release();
    await page.waitForSelector('#rebuild.done');
    const finished = await page.textContent('#rebuild-status');
    expect(finished).toMatch(/^Rebuild of all done: [\d,]+ events replayed in [\d.]+ s, now served from read-models-.*\.sqlite\.$/);
    expect(await page.getAttribute('#rebuild-bar', 'style')).toBe('width: 100%;');
    expect(await page.isDisabled('#rebuild-start')).toBe(false);
    // The table shows the new copy.
    const copy = /now served from (\S+)\.$/.exec(finished!)![1];
    expect((await rowOf('users'))[4]).toBe(copy);
  });

  it("shows a message's audit history as a timeline with old → new values", async () => {
    const { id } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Rebuilt', topic: 'audit', content: 'first draft' }));
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${id}`, { content: 'second thoughts' }));

    await page.selectOption('#history-kind', 'message_id');
    await page.fill('#history-id', String(id));
    await page.click('#history-form button[type=submit]');
    await page.waitForSelector('#history li.entry >> nth=1');
    const entries = await page.$$eval('#history li.entry', (items) =>
      items.map((li) => ({
        type: li.querySelector('.entry-type')!.textContent,
        meta: li.querySelector('.entry-meta')!.textContent,
        changes: [...li.querySelectorAll('.change')].map((c) => [c.querySelector('.field')!.textContent, c.querySelector('.old')!.textContent, c.querySelector('.new')!.textContent]),
      })),
    );
    expect(entries[0]).toMatchObject({ type: 'Message sent', meta: expect.stringContaining(`by user ${api.user('hamlet').userId}`) });
    expect(await page.textContent('#history-summary')).toBe(`${entries.length} events, oldest first.`);
    // Sending also set hamlet's visibility policy for the topic (a follow): one stream, every event.
    const edit = entries.find((e) => e.type === 'Message content edited');
    expect(entries.indexOf(edit!)).toBe(entries.length - 1);
    expect(edit!.changes).toContainEqual(['content:', 'first draft', 'second thoughts']);

    // A direct message between two others: listed, its content hidden from the administrator.
    const dm = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([api.user('cordelia').userId]), content: 'between us' })).id;
    await page.fill('#history-id', String(dm));
    await page.click('#history-form button[type=submit]');
    await page.waitForSelector('#history .hidden-note');
    expect(await page.textContent('#history li.entry .entry-type')).toBe('Message sent');
    expect(await page.textContent('#history .hidden-note')).toContain('content');
    expect(await page.textContent('#history')).not.toContain('between us');

    // A message without events has an empty timeline; a lookup the API refuses shows its message.
    await page.fill('#history-id', '999999');
    await page.click('#history-form button[type=submit]');
    await expectText('#history-summary', 'No events.');
    expect(await page.$$('#history li.entry')).toHaveLength(0);
    await page.selectOption('#history-kind', 'user_id');
    await page.fill('#history-id', 'hamlet');
    await page.click('#history-form button[type=submit]');
    await waitForText('#history-error', /./);
    expect(await page.textContent('#history-error')).toMatch(/user_id/);
    expect(await page.textContent('#history-summary')).toBe('');

    // Signing out forgets the key: the next call needs a new sign-in.
    await page.click('#sign-out');
    expect(await page.isVisible('#sign-in-panel')).toBe(true);
    expect(await page.isVisible('#console')).toBe(false);
  });

  /** Waits until the element's text is `text` (or matches it). */
  async function waitForText(selector: string, text: string | RegExp) {
    const pattern = typeof text === 'string' ? new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : text;
    await page.locator(selector).filter({ hasText: pattern }).waitFor();
  }

  async function expectText(selector: string, text: string) {
    await waitForText(selector, text);
  }

  async function rowOf(name: string): Promise<string[]> {
    return page.$$eval('#projections tbody tr', (rows, wanted) => {
      const row = rows.find((r) => r.querySelector('td')?.textContent === wanted);
      return row ? [...row.querySelectorAll('td')].map((td) => td.textContent ?? '') : [];
    }, name);
  }
});
