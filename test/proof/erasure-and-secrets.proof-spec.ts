import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import pino from 'pino';
import { APP_CONFIG, CREDENTIALS, CredentialVault, MissedMessageEmails, READ_STORE, type ReadStorePort, type RecordedEvent } from '@app/application';
import type { AppConfig } from '@app/config';
import { fileSources, makeTempDir, type Needle, needlesOf, personaHelpers, readWholeLog, type ScanHit, scanSources, type ScanSource, tokenIdOf } from '@app/testing';
import { buildProgram } from '../../apps/cli/src/commands';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';
import { ApiTestClient, expectSuccess, runCli } from '../support';

/**
 * Issue 35 item 6, the proof (docs/security.md, "Proof"): a scenario on a real server (a data
 * directory on disk, HTTP, the CLI), then every byte the server keeps — every file of the data
 * directory (event log, read-model copies, snapshots, credential store, mail outbox, uploads, WAL
 * files), the export, everything logged — and every answer an owner and an administrator get from
 * /api/v1/svc/* and the console is searched for every API key ever issued, every password and every
 * password hash (nowhere, in any form), and for the texts of deleted messages (nowhere: the read
 * models forget them at once; the log and its export hold message texts only sealed, and the
 * purge destroys the deleted messages' keys, after which not even the server reads them back).
 *
 * Adding to it: a step is one line of STEPS; a needle is one `secret(...)` or `erased(...)` call.
 */
jest.setTimeout(600_000);

/** What the steps share: the server, the needles, the captured log. */
type Scenario = {
  api: ApiTestClient;
  dataDir: string;
  exportDir: string;
  /** Registers a value that must not be stored, logged or answered anywhere, in any form. */
  secret(kind: string, value: string): void;
  /** Registers a word of a message that is deleted (by the scenario): erased everywhere. */
  erased(kind: string, value: string): void;
  /** A CLI command on the data directory, as its own application context (its log captured too). */
  cli(...argv: string[]): Promise<string[]>;
  /** The answers of /svc/* the steps got (the rebuild's): scanned with the others. */
  answers: ScanSource[];
  ids: Record<string, number>;
  /** Each account's password now. */
  passwords: Map<string, string>;
  /** Texts of messages that stay: the scan must find them (it reads the right bytes). */
  kept: string[];
  /** The whole log as the server reads it (texts opened with their keys), before and after the purge. */
  logBeforePurge: string;
  logAfterPurge: string;
};

const random = (bytes = 12) => randomBytes(bytes).toString('hex');
/** A password no other byte of the run can contain by chance. */
const newPassword = () => `Pw-${random()}`;

const helpers = (s: Scenario) => personaHelpers(() => s.api);

/** Waits until `done` holds (what another process or a background job does), at most a minute. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await done()); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every password hash the credential store holds now (called after every password change, so that replaced hashes are needles too). */
async function collectPasswordHashes(s: Scenario): Promise<void> {
  const vault = s.api.app.get(CredentialVault);
  for (const doc of await s.api.app.get<ReadStorePort>(READ_STORE).find<{ password_id: string | null }>(CREDENTIALS, { where: { realm_id: s.api.realmId } })) {
    const hash = doc.password_id ? await vault.passwordHash(doc.password_id) : null;
    if (hash) s.secret('password hash', hash);
  }
}

/** POST /fetch_api_key: the key it hands out (a needle). */
async function fetchKey(s: Scenario, email: string, password: string): Promise<string> {
  const key = expectSuccess(await s.api.http.post('/api/v1/fetch_api_key').type('form').send({ username: email, password })).api_key as string;
  s.secret('API key', key);
  return key;
}

/** The personas (owner, administrator, moderator, members, a guest) and one member created by an administrator with a password. */
async function organization(s: Scenario): Promise<void> {
  for (const [name, credentials] of s.api.credentials) {
    s.secret('API key', credentials.apiKey);
    s.passwords.set(name, `${name}-password`);
    s.secret('password', `${name}-password`);
  }
  const password = newPassword();
  s.secret('password', password);
  s.passwords.set('newbie', password);
  s.ids.newbie = expectSuccess(await s.api.as('iago').post('/api/v1/users', { email: 'newbie@acme.test', password, full_name: 'New Bie' })).user_id as number;
  const apiKey = await fetchKey(s, 'newbie@acme.test', password);
  s.api.credentials.set('newbie', { userId: s.ids.newbie, email: 'newbie@acme.test', apiKey });
  await collectPasswordHashes(s);
}

/** Passwords changed by their users (the owner and the administrator among them), and logged in with. */
async function changePasswords(s: Scenario): Promise<void> {
  for (const name of ['desdemona', 'iago', 'hamlet', 'newbie']) {
    const password = newPassword();
    s.secret('password', password);
    expectSuccess(await s.api.as(name).patch('/api/v1/settings', { old_password: s.passwords.get(name), new_password: password }));
    s.passwords.set(name, password);
    await collectPasswordHashes(s);
    expect(await fetchKey(s, s.api.user(name).email, password)).toBe(s.api.user(name).apiKey);
  }
}

/** API keys regenerated by the operator (CLI `api-key --regenerate`): the old and the new key are needles. */
async function regenerateKeys(s: Scenario): Promise<void> {
  for (const name of ['desdemona', 'hamlet', 'polonius']) {
    const [key] = await s.cli('api-key', '--email', s.api.user(name).email, '--regenerate');
    s.secret('API key', key);
    s.api.credentials.set(name, { ...s.api.user(name), apiKey: key });
    // The server reads the change from the log: wait until it takes the new key.
    await until(async () => (await s.api.as(name).get('/api/v1/users/me')).status === 200, `the server accepts ${name}'s regenerated key`);
  }
}

/** A bot, its key handed to its owner; then regenerated. */
async function bots(s: Scenario): Promise<void> {
  const bot = expectSuccess(await s.api.as('cordelia').post('/api/v1/bots', { full_name: 'Proof Bot', short_name: 'proof' }));
  s.secret('API key', bot.api_key as string);
  const email = expectSuccess(await s.api.as('cordelia').get(`/api/v1/users/${bot.user_id}`)).user.email as string;
  const [key] = await s.cli('api-key', '--email', email, '--regenerate');
  s.secret('API key', key);
}

/**
 * Push secrets (the E2EE push key, the registration encrypted for the bouncer, legacy APNs and FCM
 * tokens): a device registered, its key rotated, a token added and one removed.
 */
async function pushDevices(s: Scenario): Promise<void> {
  const pushKey = () => Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');
  const deviceId = expectSuccess(await s.api.as('hamlet').post('/api/v1/register_client_device')).device_id as number;
  const first = { push_key: pushKey(), encrypted_push_registration: `encrypted-registration-${random()}` };
  const rotated = pushKey();
  const [apns, fcm, removedFcm] = [random(32), `fcm-token-${random()}`, `fcm-token-removed-${random()}`];
  for (const value of [first.push_key, first.encrypted_push_registration, rotated]) s.secret('push secret', value);
  for (const value of [apns, fcm, removedFcm]) s.secret('push token', value);
  expectSuccess(await s.api.as('hamlet').post('/api/v1/mobile_push/register', { device_id: deviceId, push_key_id: 1, token_kind: 'fcm', token_id: tokenIdOf('proof-phone'), bouncer_public_key: 'bouncer-public-key', ...first }));
  expectSuccess(await s.api.as('hamlet').post('/api/v1/mobile_push/register', { device_id: deviceId, push_key_id: 2, push_key: rotated }));
  expectSuccess(await s.api.as('hamlet').post('/api/v1/users/me/apns_device_token', { token: apns, appid: 'org.zulip.Zulip' }));
  expectSuccess(await s.api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: fcm }));
  expectSuccess(await s.api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: removedFcm }));
  expectSuccess(await s.api.as('hamlet').delete('/api/v1/users/me/android_gcm_reg_id', { token: removedFcm }));
}

/** Messages of every kind, some kept, the others deleted by the next step; edits; reactions; an upload. */
async function messages(s: Scenario): Promise<void> {
  const { id, createChannel, sendToChannel, send } = helpers(s);
  s.ids.public = await createChannel('hamlet', 'proof-public', { principals: JSON.stringify(['hamlet', 'cordelia', 'polonius', 'iago'].map(id)) });
  s.ids.private = await createChannel('hamlet', 'proof-private', { invite_only: true, principals: JSON.stringify(['hamlet', 'cordelia'].map(id)) });
  // Each needle is one word of the message: whole in the content, the rendered HTML, the search
  // text, and (lower-case, ending in a digit so that no stemmer cuts it) a term of the search index,
  // whose pages store a term after the prefix it shares with the one before it (its second half stays whole).
  const word = () => `${random()}7`;
  const text = (kind: string) => {
    const value = word();
    s.erased(kind, value);
    return value;
  };
  s.kept.push(word());
  await sendToChannel('hamlet', 'proof-public', 'kept', `a public message that stays ${s.kept[0]}`);
  s.ids.publicDeleted = await sendToChannel('hamlet', 'proof-public', 'plans', `a public message ${text('public')}`);
  expectSuccess(await s.api.as('hamlet').patch(`/api/v1/messages/${s.ids.publicDeleted}`, { content: `edited: ${text('public, edited')}` }));
  expectSuccess(await s.api.as('cordelia').post(`/api/v1/messages/${s.ids.publicDeleted}/reactions`, { emoji_name: 'octopus' }));
  expectSuccess(await s.api.as('polonius').post(`/api/v1/messages/${s.ids.publicDeleted}/reactions`, { emoji_name: 'heart' }));
  s.ids.privateDeleted = await sendToChannel('hamlet', 'proof-private', 'cabal', `a private-channel message ${text('private channel')}`);
  await sendToChannel('cordelia', 'proof-private', 'cabal', 'a private-channel message that stays');
  s.ids.dmDeleted = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: `a direct message ${text('direct')}` });
  s.kept.push(word());
  await send('cordelia', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: `a direct answer that stays ${s.kept[1]}` });
  s.ids.groupDeleted = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia'), id('polonius')]), content: `a group direct message ${text('group direct')}` });
  expectSuccess(await s.api.as('hamlet').patch(`/api/v1/messages/${s.ids.groupDeleted}`, { content: `edited: ${text('group direct, edited')}` }));
  expectSuccess(await s.api.as('polonius').post(`/api/v1/messages/${s.ids.groupDeleted}/reactions`, { emoji_name: 'tada' }));
  for (const n of [1, 2]) await sendToChannel('cordelia', 'proof-public', 'doomed topic', `topic message ${n} ${text(`deleted topic ${n}`)}`);
  const { email, apiKey } = s.api.user('hamlet');
  const upload = expectSuccess(await s.api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('an attachment'), 'notes.txt'));
  await sendToChannel('hamlet', 'proof-public', 'kept', `[notes](${upload.url as string})`);
}

/** DELETE /messages/{id} by senders, and an administrator's delete_topic. */
async function deletes(s: Scenario): Promise<void> {
  for (const key of ['publicDeleted', 'privateDeleted', 'dmDeleted', 'groupDeleted']) expectSuccess(await s.api.as('hamlet').delete(`/api/v1/messages/${s.ids[key]}`));
  expectSuccess(await s.api.as('iago').post(`/api/v1/streams/${s.ids.public}/delete_topic`, { topic_name: 'doomed topic' }));
}

/**
 * The missed-message mails of the scenario's direct messages (no persona is active): time passes
 * beyond the batching period and they are mailed (DATA_DIR/emails, the development mail folder).
 * The kept answer's mail reaches hamlet; the deleted messages' must reach nobody.
 */
async function missedMessageMails(s: Scenario): Promise<void> {
  const missed = s.api.background.get(MissedMessageEmails);
  await missed.handledThrough(await s.api.eventStore.headPosition());
  s.api.clock.advance(24 * 60 * 60 * 1000);
  await missed.sendDue();
  // Mailed a moment after (the outbox's delivery): wait for the one of the direct answer.
  await until(async () => (await s.api.mailsTo(s.api.user('hamlet').email, { kind: 'missed_message', timeoutMs: 0 })).some((m) => m.text.includes(s.kept[1])), 'the kept direct answer is mailed');
}

/**
 * Retention: the owner gives a channel two days; its message (and its reaction) expire when three
 * days have passed, and the operator's `retention` run deletes it (at the server's clock).
 */
async function retention(s: Scenario): Promise<void> {
  const { id, createChannel, sendToChannel } = helpers(s);
  s.ids.retained = await createChannel('hamlet', 'proof-retained', { principals: JSON.stringify(['hamlet', 'cordelia'].map(id)) });
  const value = `${random()}7`;
  s.erased('expired channel', value);
  const messageId = await sendToChannel('hamlet', 'proof-retained', 'short-lived', `a message that expires ${value}`);
  expectSuccess(await s.api.as('cordelia').post(`/api/v1/messages/${messageId}/reactions`, { emoji_name: 'hourglass' }));
  expectSuccess(await s.api.as('desdemona').patch(`/api/v1/streams/${s.ids.retained}`, { message_retention_days: 2 }));
  s.api.clock.advance(3 * 24 * 60 * 60 * 1000);
  const out = await s.cli('retention');
  expect(out.join('\n')).toContain(`#proof-retained (channel ${s.ids.retained}): 1`);
  expect((await s.api.as('cordelia').get(`/api/v1/messages/${messageId}`)).status).toBe(400);
}

/** `export-events` (with its blobs) to a directory outside the data directory. */
async function exportEvents(s: Scenario): Promise<void> {
  const out = await s.cli('export-events', '--out', join(s.exportDir, 'events.ndjson'));
  expect(out.join('\n')).toMatch(/Exported \d+ events/);
}

/** A blue/green rebuild of every projection through the API (started by the owner, followed by the administrator). */
async function rebuild(s: Scenario): Promise<void> {
  const record = (name: string, response: { text: string }) => s.answers.push({ name, bytes: response.text });
  const started = await s.api.as('desdemona').post('/api/v1/svc/projections/rebuild', { projection: 'all' });
  record('POST /api/v1/svc/projections/rebuild as desdemona', started);
  expect(expectSuccess(started).rebuild).toMatchObject({ target: 'all' });
  await until(async () => {
    const status = await s.api.as('iago').get('/api/v1/svc/projections');
    record('GET /api/v1/svc/projections (during the rebuild) as iago', status);
    const phase = expectSuccess(status).rebuild?.phase as string | undefined;
    if (phase === 'failed') throw new Error(`the rebuild failed: ${status.text}`);
    return phase === 'done';
  }, 'the rebuild is done');
}

/**
 * The purge, as the operator runs it (`purge-deleted`), on a day past ARCHIVED_DATA_VACUUMING_DELAY_DAYS
 * (30 by default) after the deletions: the deleted messages' keys are destroyed. What the server
 * read from the log before it is kept to compare (after the restart, whose fresh process has no
 * key in memory).
 */
async function purge(s: Scenario): Promise<void> {
  s.logBeforePurge = JSON.stringify((await readWholeLog(s.api.eventStore)).map((e) => e.data));
  const past = new Date(s.api.clock.now().getTime() + 31 * 24 * 60 * 60 * 1000);
  const out = await s.cli('purge-deleted', '--now', past.toISOString());
  expect(out.join('\n')).toMatch(/Destroyed [1-9]\d* keys/);
}

/** The scenario, in order. One line a step. */
const STEPS: [string, (s: Scenario) => Promise<void>][] = [
  ['organization: owner, administrator, moderator, members, a guest; a member created with a password', organization],
  ['API keys regenerated by the operator', regenerateKeys],
  ['passwords changed', changePasswords],
  ['a bot, its key regenerated', bots],
  ['push devices: keys, encrypted registrations, legacy tokens', pushDevices],
  ['messages: public, private channel, direct, group direct; edits, reactions, an upload', messages],
  ['messages deleted, a topic deleted', deletes],
  ['missed-message mails sent', missedMessageMails],
  ['a retention run', retention],
  ['export-events', exportEvents],
  ['blue/green rebuild', rebuild],
  ['the purge of deleted messages, past the vacuuming delay', purge],
];

/** Who reads the administrators' answers. */
const READERS = ['desdemona', 'iago'] as const;

/**
 * Every history form for every entity the log names (check audit-history.ts for the forms):
 * `stream=` for each stream, `message_id=` each message, `channel_id=` each channel, `user_id=`
 * each user, and `realm`.
 */
function historyForms(events: RecordedEvent[]): Record<string, unknown>[] {
  const ids = (type: string, field: string) => [...new Set(events.filter((e) => e.type === type).map((e) => (e.data as Record<string, number>)[field]))];
  return [
    ...[...new Set(events.map((e) => e.streamId))].map((stream) => ({ stream })),
    ...ids('MessageSent', 'messageId').map((message_id) => ({ message_id })),
    ...ids('ChannelCreated', 'channelId').map((channel_id) => ({ channel_id })),
    ...ids('UserCreated', 'userId').map((user_id) => ({ user_id })),
    { realm: true },
  ];
}

/**
 * How the scan calls each route under /api/v1/svc and /svc (found from the application's routes, so
 * a new one fails the test until it is added here): the parameters of each call, as each reader.
 */
const SVC_CALLS: Record<string, (events: RecordedEvent[], api: ApiTestClient) => Promise<{ path: string; query?: Record<string, unknown> }[]>> = {
  'GET /api/v1/svc/projections': async () => [{ path: '/api/v1/svc/projections' }],
  'GET /api/v1/svc/history': async (events) => historyForms(events).map((query) => ({ path: '/api/v1/svc/history', query })),
  // Its answers were recorded by the rebuild step (another rebuild here would only answer the same progress object).
  'POST /api/v1/svc/projections/rebuild': async () => [],
  'GET /svc/console': async () => [{ path: '/svc/console' }],
  // The files the console's page names.
  'GET /svc/console/:file': async (_events, api) => {
    const page = (await api.http.get('/svc/console')).text;
    return [...page.matchAll(/(?:src|href)="(?:\.\/|\/svc\/console\/)?([\w.-]+\.(?:js|css))"/g)].map((m) => ({ path: `/svc/console/${m[1]}` }));
  },
};

describe('the proof: no secret and no erased text in any byte the server keeps, logs or answers', () => {
  const log: string[] = [];
  const secrets: (Needle & { kind: string })[] = [];
  const erasedTexts: Needle[] = [];
  /** The files, at each point they were read: `data/<path> [running]`, `data/<path> [after restart]`, `export/<path> [...]`. */
  const files: ScanSource[] = [];
  let s: Scenario;
  let dataDir: ReturnType<typeof makeTempDir>;
  let exportDir: ReturnType<typeof makeTempDir>;
  let svcRoutes: string[];
  let events: RecordedEvent[];

  const logger = pino({ level: 'trace' }, new Writable({ write: (chunk, _encoding, done) => (log.push(String(chunk)), done()) }));
  const readFiles = (point: string) => {
    for (const source of [...fileSources(s.dataDir, 'data'), ...fileSources(s.exportDir, 'export')]) files.push({ ...source, name: `${source.name} [${point}]` });
  };
  const ran = (hits: ScanHit[]) => hits.map((h) => `${h.source}: ${h.needle} (${h.form})`);

  beforeAll(async () => {
    exportDir = makeTempDir('proof-export-');
    const api = await ApiTestClient.start({ logger, config: { pushNotificationsBouncerUrl: 'https://push.example.com' } });
    const dir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    s = {
      api,
      dataDir: dir,
      exportDir: exportDir.path,
      secret: (kind, value) => {
        if (!secrets.some((n) => n.value === value)) secrets.push({ kind, label: `${kind} ${value.slice(0, 6)}…`, value });
      },
      erased: (kind, value) => erasedTexts.push({ label: `deleted ${kind} message's word ${value}`, value }),
      cli: async (...argv) => (await runCli(dir, argv, { logger, clock: api.clock })).out,
      answers: [],
      ids: {},
      passwords: new Map(),
      kept: [],
      logBeforePurge: '',
      logAfterPurge: '',
    };
    for (const [, step] of STEPS) await step(s);

    // Every answer of /svc/* and the console, as the owner and as the administrator.
    events = await readWholeLog(api.eventStore);
    const routes = [...listApiRoutes(api.app, { prefix: '/api/v1/svc/' }), ...listApiRoutes(api.app, { prefix: '/svc/' })];
    svcRoutes = routes.map((r) => `${r.method} ${r.path}`);
    for (const route of svcRoutes.filter((r) => r in SVC_CALLS)) {
      for (const { path, query } of await SVC_CALLS[route](events, api)) {
        for (const who of READERS) {
          const response = await api.as(who).get(path, query ?? {});
          expect({ route, query, who, status: response.status }).toEqual({ route, query, who, status: 200 });
          s.answers.push({ name: `GET ${path}${query ? `?${new URLSearchParams(query as Record<string, string>)}` : ''} as ${who}`, bytes: response.text });
        }
      }
    }
    // The operator's CLI history of every stream (it shows every value but secrets and deleted texts).
    const cliOut: string[] = [];
    const cli = buildProgram((fn) => fn(api.app), { out: (line) => cliOut.push(line), err: (line) => cliOut.push(line) });
    for (const stream of new Set(events.map((e) => e.streamId))) await cli.parseAsync(['node', 'cli', 'history', '--stream', stream, '--json']);
    s.answers.push({ name: 'CLI history --stream <every stream>', bytes: cliOut.join('\n') });

    readFiles('running');
    // A restart checkpoints the WAL files into the databases and runs the boot's own steps; read everything again.
    await api.restart();
    readFiles('after restart');
    s.logAfterPurge = JSON.stringify((await readWholeLog(api.eventStore)).map((e) => e.data));
  });
  afterAll(async () => {
    await s?.api.close();
    exportDir?.remove();
  });

  it('ran the whole scenario and read what it should', () => {
    const count = (kind: string) => secrets.filter((n) => n.kind === kind).length;
    // 6 personas and a new member, 3 regenerated, a bot's 2; their 7 first passwords and 4 new ones, a hash each.
    expect({ keys: count('API key'), passwords: count('password'), hashes: count('password hash') }).toEqual({ keys: 12, passwords: 11, hashes: 11 });
    expect(erasedTexts.length).toBe(9);
    const names = files.map((f) => f.name);
    // The event log, the credential store, snapshots, the mail outbox, with their WAL files; the export.
    for (const file of ['events.sqlite', 'events.sqlite-wal', 'credentials.sqlite', 'credentials.sqlite-wal', 'credentials.key', 'snapshots.sqlite', 'mail-outbox.sqlite']) {
      expect(names).toContain(`data/${file} [running]`);
    }
    expect(names).toEqual(expect.arrayContaining(['data/events.sqlite [after restart]', 'export/events.ndjson [running]']));
    // The read-model copy the rebuild made, the uploads, the export's blobs.
    for (const pattern of [/^data\/read-models-[^/]+\.sqlite \[after restart\]$/, /^data\/read-models-[^/]+\.sqlite-wal \[running\]$/, /^data\/blobs\/.+ \[running\]$/, /^export\/events\.ndjson\.blobs\/.+ \[running\]$/]) {
      expect({ pattern: String(pattern), read: names.some((n) => pattern.test(n)) }).toEqual({ pattern: String(pattern), read: true });
    }
    expect(s.answers.map((a) => a.name)).toEqual(expect.arrayContaining(['POST /api/v1/svc/projections/rebuild as desdemona', 'GET /svc/console/console.js as iago', 'GET /svc/console/console.css as desdemona', 'GET /api/v1/svc/history?realm=true as desdemona']));
    expect(log.length).toBeGreaterThan(0);
    // The log and the answers hold what a secret or a text would be next to: the scan reads the right things.
    // Every request's line (at debug outside production) and what the CLI logged are in it.
    expect(log.join('')).toContain('"msg":"request"');
    expect(s.answers.some((a) => String(a.bytes).includes('"MessageDeleted"'))).toBe(true);
  });

  it('finds what is there: a kept message\'s text in the read models, the answers and the log as the server reads it, and only sealed in the log\'s files and the export', () => {
    const found = new Set(scanSources([...files, ...s.answers], needlesOf('kept text', s.kept)).map((h) => h.source.replace(/ \[.*\]$| as \w+$|\?.*$/g, '').replace(/read-models-[^/]+\.sqlite/, 'read-models-<copy>.sqlite')));
    expect([...found]).toEqual(expect.arrayContaining(['data/read-models-<copy>.sqlite', 'GET /api/v1/svc/history', 'CLI history --stream <every stream>']));
    expect([...found].filter((source) => /^data\/events\.sqlite|^export\/events\.ndjson$/.test(source))).toEqual([]);
    for (const text of s.kept.slice(0, 2)) expect(s.logAfterPurge).toContain(text);
    // The kept direct answer's missed-message mail, in the development mail folder.
    expect(scanSources(files, needlesOf('kept direct text', [s.kept[1]])).some((h) => /^data\/emails\//.test(h.source))).toBe(true);
  });

  it('every route under /api/v1/svc and /svc has a way to be called here', () => {
    expect(svcRoutes.length).toBeGreaterThanOrEqual(5);
    expect(svcRoutes.filter((r) => !(r in SVC_CALLS))).toEqual([]);
    expect(Object.keys(SVC_CALLS).filter((r) => !svcRoutes.includes(r))).toEqual([]);
  });

  it('no API key, password or password hash in any file of the data directory (the credential store included) or of the export', () => {
    expect(ran(scanSources(files, secrets))).toEqual([]);
  });

  it('none in anything the server or the CLI logged', () => {
    expect(ran(scanSources([{ name: 'log', bytes: log.join('') }], secrets))).toEqual([]);
  });

  it('none in any answer an owner or an administrator gets from /svc/* or the console, nor in the CLI history', () => {
    expect(ran(scanSources(s.answers, secrets))).toEqual([]);
  });

  it('no deleted text in any file (the event log and the export included), snapshot, mail, upload, log or answer', () => {
    expect(ran(scanSources([...files, { name: 'log', bytes: log.join('') }, ...s.answers], erasedTexts))).toEqual([]);
  });

  it('the log held the deleted texts, sealed, until the purge, and not even the server reads them back after it', () => {
    for (const { value } of erasedTexts) expect({ value, before: s.logBeforePurge.includes(value), after: s.logAfterPurge.includes(value) }).toEqual({ value, before: true, after: false });
  });
});
