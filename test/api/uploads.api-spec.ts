import { readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type request from 'supertest';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { TINY_PNG, personaHelpers } from '@app/testing';
import { ApiTestClient, checkFuzzResponse, expectError, expectSuccess, generateFuzzRequests, sendFuzzRequest } from '../support';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';

const UPLOADS = '/api/v1/user_uploads';
const MESSAGES = '/api/v1/messages';
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

/** Reads a file's body as bytes (an error's JSON envelope as JSON). */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const data = Buffer.concat(chunks);
      done(null, String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(data.toString()) : data);
    });
  });

/** zerver/tests/test_upload.py through the real HTTP stack. */
describe('uploads', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ config: { maxFileUploadSizeMib: 1 } })));
  afterEach(() => api.close());

  const upload = (who: string, files: { data: Buffer | string; name: string; type?: string }[] = [{ data: 'zulip!', name: 'zulip.txt' }]) => {
    const { email, apiKey } = api.user(who);
    let req = api.http.post(UPLOADS).auth(email, apiKey);
    files.forEach((f, i) => (req = req.attach(`file${i + 1}`, Buffer.from(f.data), f.type ? { filename: f.name, contentType: f.type } : f.name)));
    if (files.length === 0) req = req.field('unused', 'x');
    return req;
  };
  const uploaded = async (who: string, name = 'zulip.txt', data: Buffer | string = 'zulip!', type?: string) =>
    expectSuccess(await upload(who, [{ data, name, type }])) as { url: string; uri: string; filename: string };
  const fetchFile = (who: string | null, url: string) => {
    const req = binary(api.http.get(url));
    if (who === null) return req;
    const { email, apiKey } = api.user(who);
    return req.auth(email, apiKey);
  };
  const storedUploads = (): string[] => {
    const root = join(api.app.get<AppConfig>(APP_CONFIG).dataDir, 'blobs', 'objects', 'uploads');
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    } catch {
      return [];
    }
  };
  const { id, send } = personaHelpers(() => api);

  describe('POST /user_uploads', () => {
    it("stores the file under Zulip's path id and answers url, uri and filename", async () => {
      const body = await uploaded('hamlet', 'zulip.txt');
      expect(body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(new RegExp(`^/user_uploads/${api.realmId}/[A-Za-z0-9_-]{24}/zulip\\.txt$`)), uri: body.url, filename: 'zulip.txt' });
      const file = await fetchFile('hamlet', body.url);
      expect(file.status).toBe(200);
      expect((file.body as Buffer).toString()).toBe('zulip!');
      expect(storedUploads()).toHaveLength(1);
    });

    it('sanitizes the name in the path and keeps the name as uploaded', async () => {
      const body = await uploaded('hamlet', 'my [weird] file (1).txt');
      expect(body.filename).toBe('my [weird] file (1).txt');
      expect(body.url).toMatch(/\/my-weird-file-1\.txt$/);
      const unicode = await uploaded('hamlet', 'résumé été.pdf');
      expect(decodeURIComponent(unicode.url)).toMatch(/\/résumé-été\.pdf$/);
    });

    it('refuses a request without a file', async () =>
      expectError(await upload('hamlet', []), 'You must specify a file to upload', { code: 'BAD_REQUEST', status: 400 }));

    it('refuses a form-encoded request', async () =>
      expectError(await api.as('hamlet').post(UPLOADS, { file: 'x' }), 'You must specify a file to upload'));

    it('refuses two files and keeps neither', async () => {
      expectError(await upload('hamlet', [{ data: 'a', name: 'a.txt' }, { data: 'b', name: 'b.txt' }]), 'You may only upload one file at a time');
      expect(storedUploads()).toEqual([]);
      expect(await api.newEvents()).toEqual([]);
    });

    it('refuses a file over max_file_upload_size_mib and keeps nothing', async () => {
      expectError(await upload('hamlet', [{ data: Buffer.alloc(1024 * 1024 + 1, 7), name: 'big.bin' }]), 'Uploaded file is larger than the allowed limit of 1 MiB');
      expect(storedUploads()).toEqual([]);
      expect(await api.newEvents()).toEqual([]);
      // Exactly the limit is fine.
      expectSuccess(await upload('hamlet', [{ data: Buffer.alloc(1024 * 1024, 7), name: 'max.bin' }]));
    });

    it('keeps nothing of an upload whose client goes away mid-file', async () => {
      const server = api.app.getHttpServer() as Server;
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const { email, apiKey } = api.user('hamlet');
      const socket = await new Promise<Socket>((resolve) => {
        const s = connect(port, '127.0.0.1', () => resolve(s));
      });
      const head = '--x\r\nContent-Disposition: form-data; name="f"; filename="cut.bin"\r\n\r\n';
      socket.write(
        `POST ${UPLOADS} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${head.length + 500_000}\r\n\r\n${head}`,
      );
      socket.write(Buffer.alloc(200_000, 1));
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
      const root = join(api.app.get<AppConfig>(APP_CONFIG).dataDir, 'blobs');
      const leftovers = () => {
        try {
          return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !e.parentPath.includes('secrets')).map((e) => e.name);
        } catch {
          return [];
        }
      };
      for (let i = 0; i < 100 && leftovers().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(leftovers()).toEqual([]);
      expect(await api.newEvents()).toEqual([]);
    });

    it('requires credentials', async () => {
      const res = await api.http.post(UPLOADS).attach('file', Buffer.from('x'), 'x.txt');
      expectError(res, 'Not logged in: API authentication or user session required', { code: 'UNAUTHORIZED', status: 401 });
    });
  });

  describe('serving /user_uploads/{path_id}', () => {
    it('serves safe headers: inline for safe types, attachment otherwise, never sniffed', async () => {
      const png = await uploaded('hamlet', 'pic.png', TINY_PNG, 'image/png');
      const res = await fetchFile('hamlet', png.url);
      expect(res.headers).toMatchObject({
        'content-type': 'image/png',
        'content-disposition': 'inline; filename="pic.png"',
        'x-content-type-options': 'nosniff',
        'content-security-policy': expect.stringContaining("default-src 'none'"),
      });
      expect(Buffer.compare(res.body as Buffer, TINY_PNG)).toBe(0);
      const html = await uploaded('hamlet', 'page.html', '<script>alert(1)</script>', 'text/html');
      expect((await fetchFile('hamlet', html.url)).headers['content-disposition']).toBe('attachment; filename="page.html"');
      expect((await fetchFile('hamlet', png.url.replace('/user_uploads/', '/user_uploads/download/'))).headers['content-disposition']).toBe('attachment; filename="pic.png"');
      const accented = await uploaded('hamlet', 'été.txt', 'x');
      expect((await fetchFile('hamlet', accented.url)).headers['content-disposition']).toBe("inline; filename*=utf-8''%C3%A9t%C3%A9.txt");
    });

    it('guesses the type from the name when the part declares none', async () => {
      const png = await uploaded('hamlet', 'pic.png', TINY_PNG, 'application/octet-stream');
      expect((await fetchFile('hamlet', png.url)).headers['content-type']).toBe('image/png');
    });

    it('answers "File not found." (404) for unknown files and 401 without credentials', async () => {
      const body = await uploaded('hamlet');
      expectError(await fetchFile('hamlet', body.url + 'x'), 'File not found.', { status: 404 });
      expect((await fetchFile('hamlet', `/user_uploads/${api.realmId}/../../etc/passwd`)).status).toBe(404);
      expectError(await fetchFile('hamlet', `/user_uploads/${api.realmId}/x/..%2F..%2Fetc/passwd`), 'File not found.', { status: 404 });
      expectError(await fetchFile(null, body.url), 'Not logged in: API authentication or user session required', { status: 401 });
    });
  });

  describe('GET /api/v1/user_uploads/{realm_id}/{filename}: temporary URLs', () => {
    it('hands out a 60-second URL that needs no credentials', async () => {
      const body = await uploaded('hamlet');
      const { url } = expectSuccess(await api.as('hamlet').get(`/api/v1${body.url}`));
      expect(url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/zulip\.txt$/);
      expect(((await fetchFile(null, url)).body as Buffer).toString()).toBe('zulip!');
      expectError(await fetchFile(null, url.replace(/zulip\.txt$/, 'other.txt')), 'Invalid filename');
      expectError(await fetchFile(null, url.replace(/temporary\/./, 'temporary/A')), 'Invalid token');
      api.clock.advance(61_000);
      expectError(await fetchFile(null, url), 'Invalid token');
    });

    it('works for names outside ASCII', async () => {
      const body = await uploaded('hamlet', 'été.txt', 'accents');
      const { url } = expectSuccess(await api.as('hamlet').get(`/api/v1${body.url}`));
      expect(((await fetchFile(null, url)).body as Buffer).toString()).toBe('accents');
    });

    it('refuses readers without access like the file itself', async () => {
      const body = await uploaded('hamlet');
      expectError(await api.as('cordelia').get(`/api/v1${body.url}`), 'You are not authorized to view this file.', { status: 403 });
      expectError(await api.as('cordelia').get(`/api/v1${body.url}x`), 'File not found.', { status: 404 });
    });
  });

  describe('who may read an upload', () => {
    const createChannel = async (who: string, name: string, options: Record<string, unknown> = {}) =>
      expectSuccess(await api.as(who).post(SUBSCRIPTIONS, { subscriptions: [{ name }], ...options }));
    const addSubscriber = async (name: string, who: string) =>
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name }], principals: [id(who)] }));
    const linkIn = (url: string) => `see [the file](${url})`;
    const status = async (who: string, url: string) => (await fetchFile(who, url)).status;
    /** HTTP status of the file for the uploader, a member, an administrator and a guest. */
    const matrix = async (url: string) => Object.fromEntries(await Promise.all(['hamlet', 'cordelia', 'iago', 'polonius'].map(async (w) => [w, await status(w, url)])));

    it('only the uploader, before any message links it (administrators included)', async () => {
      const { url } = await uploaded('hamlet');
      expect(await matrix(url)).toEqual({ hamlet: 200, cordelia: 403, iago: 403, polonius: 403 });
      // Every way to the bytes asks the same question.
      expect(await status('cordelia', url.replace('/user_uploads/', '/user_uploads/download/'))).toBe(403);
      expect((await api.as('cordelia').get(`/api/v1${url}`)).status).toBe(403);
    });

    it('a public channel message: every member, not guests outside the channel', async () => {
      await createChannel('hamlet', 'Denmark');
      const { url } = await uploaded('hamlet');
      await send('hamlet', { type: 'stream', to: 'Denmark', topic: 't', content: linkIn(url) });
      expect(await matrix(url)).toEqual({ hamlet: 200, cordelia: 200, iago: 200, polonius: 403 });
    });

    it('a guest subscribed to the public channel can read it', async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('polonius')] });
      const { url } = await uploaded('hamlet');
      await send('hamlet', { type: 'stream', to: 'Denmark', topic: 't', content: linkIn(url) });
      expect(await status('polonius', url)).toBe(200);
    });

    it('a direct message: its participants only', async () => {
      const { url } = await uploaded('hamlet');
      await send('hamlet', { type: 'direct', to: JSON.stringify([id('polonius')]), content: linkIn(url) });
      expect(await matrix(url)).toEqual({ hamlet: 200, cordelia: 403, iago: 403, polonius: 200 });
    });

    it('a protected-history private channel: only subscribers who received the message', async () => {
      await createChannel('hamlet', 'secret', { invite_only: true, history_public_to_subscribers: false, principals: [id('hamlet'), id('cordelia')] });
      const { url } = await uploaded('hamlet');
      await send('hamlet', { type: 'stream', to: 'secret', topic: 't', content: linkIn(url) });
      await addSubscriber('secret', 'polonius');
      expect(await matrix(url)).toEqual({ hamlet: 200, cordelia: 200, iago: 403, polonius: 403 });
    });

    it('a shared-history private channel: every current subscriber, later ones included', async () => {
      await createChannel('hamlet', 'shared', { invite_only: true, history_public_to_subscribers: true });
      const { url } = await uploaded('hamlet');
      await send('hamlet', { type: 'stream', to: 'shared', topic: 't', content: linkIn(url) });
      expect(await status('cordelia', url)).toBe(403);
      await addSubscriber('shared', 'cordelia');
      await addSubscriber('shared', 'polonius');
      expect(await matrix(url)).toEqual({ hamlet: 200, cordelia: 200, iago: 403, polonius: 200 });
    });

    it("a message linking someone else's upload does not share it (only the uploader's messages claim it)", async () => {
      await createChannel('hamlet', 'Denmark');
      await createChannel('cordelia', 'Denmark');
      const { url } = await uploaded('hamlet');
      await send('cordelia', { type: 'stream', to: 'Denmark', topic: 't', content: linkIn(url) });
      expect(await matrix(url)).toEqual({ hamlet: 200, cordelia: 403, iago: 403, polonius: 403 });
    });
  });

  describe('hostile requests', () => {
    it('answers generated malformed requests to the upload routes in the envelope, never a 5xx', async () => {
      const routes = listApiRoutes(api.app).filter((r) => /\/(user_uploads|attachments|tus)\b/.test(r.path));
      expect(routes.length).toBeGreaterThanOrEqual(8);
      const failures: string[] = [];
      const credentials = { valid: api.user('hamlet'), valid2: api.user('iago') };
      for (const request of generateFuzzRequests(routes, 400, 9)) {
        const failure = checkFuzzResponse(request, await sendFuzzRequest((method, path) => api.http[method.toLowerCase() as 'get'](path), request, credentials));
        if (failure) failures.push(failure);
      }
      expect(failures).toEqual([]);
    }, 120_000);

    it.each([
      ['a broken boundary', 'multipart/form-data; boundary=x', '--y\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc\r\n--y--'],
      ['no boundary', 'multipart/form-data', 'abc'],
      ['a truncated file part', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc'],
      ['a part without headers', 'multipart/form-data; boundary=x', '--x\r\n\r\nabc\r\n--x--\r\n'],
      ['a huge file name', 'multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="f"; filename="${'n'.repeat(70_000)}.txt"\r\n\r\nabc\r\n--x--\r\n`],
      ['hundreds of fields', 'multipart/form-data; boundary=x', Array.from({ length: 300 }, (_, i) => `--x\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('') + '--x--\r\n'],
    ])('answers %s in the envelope and keeps nothing', async (_label, contentType, body) => {
      const { email, apiKey } = api.user('hamlet');
      const res = await api.http.post(UPLOADS).auth(email, apiKey).set('Content-Type', contentType).send(body);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ result: expect.stringMatching(/^(error|success)$/) });
      if (res.body.result === 'error') expect(res.body.code).toEqual(expect.any(String));
    });

    it('stores a file whose part has a non-UTF-8-safe name under a sanitized path', async () => {
      const { email, apiKey } = api.user('hamlet');
      const body = '--x\r\nContent-Disposition: form-data; name="f"; filename="\u00e9t\u00e9 \u{1F600}.txt"\r\nContent-Type: text/plain\r\n\r\nabc\r\n--x--\r\n';
      const res = expectSuccess(await api.http.post(UPLOADS).auth(email, apiKey).set('Content-Type', 'multipart/form-data; boundary=x').send(Buffer.from(body)));
      expect(res.filename).toBe('été 😀.txt');
      expect(decodeURIComponent(res.url)).toMatch(/\/été-\.txt$/);
    });
  });
});
