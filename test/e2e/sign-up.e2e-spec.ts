import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * The sign-up page an invitation's link opens (/join/<key>/, issue 36 part 3) in a real browser:
 * Debian's headless Chromium driven by playwright-core against a listening server, with JavaScript
 * turned off (the page must work without it). The link is read from the invitation mail.
 */
/** Debian's package (`apt-get install -y chromium`); CHROMIUM_PATH names another build. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  // eslint-disable-next-line no-console
  console.log(`sign-up page browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`);
}
const describeWithChromium = available ? describe : describe.skip;

jest.setTimeout(90_000);

describeWithChromium('the sign-up page in headless Chromium', () => {
  let api: ApiTestClient;
  let siteUrl: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet'] });
    await api.app.listen(0, '127.0.0.1');
    siteUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'sign-up-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      javaScriptEnabled: false,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
  });

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.close();
  });

  const linkMailedTo = async (to: string): Promise<string> => {
    const [mail] = await api.mailsTo(to, { kind: 'invitation' });
    const path = /\/join\/[a-z0-9]{24}\//.exec(mail?.text ?? '')?.[0];
    if (!path) throw new Error(`no invitation link mailed to ${to}`);
    return `${siteUrl}${path}`;
  };

  it('takes a name and a password by its labels, announces a refusal, then creates the account and says how to sign in', async () => {
    expectSuccess(await api.as('hamlet').post('/api/v1/invites', { invitee_emails: 'browser@example.net', stream_ids: '[]' }));
    const response = await page.goto(await linkMailedTo('browser@example.net'));
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Create your account');
    expect(await page.getAttribute('html', 'lang')).toBe('en');

    // A blank name comes back with the reason in an alert, the field pointing at it.
    await page.getByLabel('Full name').fill('  ');
    await page.getByLabel('Password').fill('correct horse battery staple');
    // `required` would stop a blank field in the browser; spaces pass it and reach the server.
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForLoadState();
    const alert = page.getByRole('alert');
    expect(await alert.isVisible()).toBe(true);
    expect(await page.getByLabel('Full name').getAttribute('aria-describedby')).toBe('form-error');

    await page.getByLabel('Full name').fill('Browser User');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your account is ready');
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain('browser@example.net');
    expect(text).toContain('Organization URL');

    const login = await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'browser@example.net', password: 'correct horse battery staple' });
    expect(expectSuccess(login).email).toBe('browser@example.net');
  });

  it('shows a clear page for a used link', async () => {
    const response = await page.goto(await linkMailedTo('browser@example.net'));
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Whoops. The invitation link is not valid.');
    expect(await page.textContent('main')).toContain('The confirmation link has expired or been deactivated.');
  });
});
