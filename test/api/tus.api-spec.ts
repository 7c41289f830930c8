import { ApiTestClient, expectError, expectSuccess } from '../support';

const TUS = '/api/v1/tus';
const b64 = (value: string) => Buffer.from(value).toString('base64');

/** The tus resumable-upload protocol at /api/v1/tus (Zulip's tusd integration), ending in an attachment. */
describe('tus uploads', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'], config: { maxFileUploadSizeMib: 1 } })));
  afterEach(() => api.close());

  const as = (who: string) => {
    const { email, apiKey } = api.user(who);
    return {
      create: (length: number, metadata = `filename ${b64('big report.txt')},filetype ${b64('text/plain')}`) =>
        api.http.post(TUS).auth(email, apiKey).set('Tus-Resumable', '1.0.0').set('Upload-Length', String(length)).set('Upload-Metadata', metadata),
      head: (location: string) => api.http.head(location).auth(email, apiKey).set('Tus-Resumable', '1.0.0'),
      patch: (location: string, offset: number, data: Buffer) =>
        api.http.patch(location).auth(email, apiKey).set('Tus-Resumable', '1.0.0').set('Upload-Offset', String(offset)).set('Content-Type', 'application/offset+octet-stream').send(data),
      terminate: (location: string) => api.http.delete(location).auth(email, apiKey).set('Tus-Resumable', '1.0.0'),
    };
  };

  it('uploads in two parts, resumes from the offset, and ends in an attachment served like any upload', async () => {
    const data = Buffer.from('a'.repeat(70_000) + 'b'.repeat(30_000));
    const created = await as('hamlet').create(data.length);
    expect(created.status).toBe(201);
    const location = created.headers.location;
    expect(location).toMatch(/^\/api\/v1\/tus\/[A-Za-z0-9]+$/);

    expect((await as('hamlet').patch(location, 0, data.subarray(0, 70_000))).status).toBe(204);
    const head = await as('hamlet').head(location);
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe('70000');

    const finished = await as('hamlet').patch(location, 70_000, data.subarray(70_000));
    expect(finished.status).toBe(200);
    const body = JSON.parse(finished.text) as { url: string; uri: string; filename: string };
    expect(body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(new RegExp(`^/user_uploads/${api.realmId}/[A-Za-z0-9_-]{24}/big-report\\.txt$`)), uri: body.url, filename: 'big report.txt' });

    const { email, apiKey } = api.user('hamlet');
    const file = await api.http.get(body.url).auth(email, apiKey);
    expect(file.status).toBe(200);
    expect(file.text).toBe(data.toString());
    expect(file.headers['content-type']).toBe('text/plain; charset=utf-8');
    const { attachments } = expectSuccess(await api.as('hamlet').get('/api/v1/attachments'));
    expect(attachments).toEqual([expect.objectContaining({ name: 'big report.txt', size: data.length })]);
    // The tus copy is gone once the attachment exists.
    expect((await as('hamlet').head(location)).status).toBe(404);
  });

  it('keeps an upload to its creator', async () => {
    const location = (await as('hamlet').create(10)).headers.location;
    const other = await as('cordelia').patch(location, 0, Buffer.from('0123456789'));
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await as('cordelia').head(location)).status).toBe(404);
    expect((await as('hamlet').head(location)).headers['upload-offset']).toBe('0');
  });

  it('refuses an upload over max_file_upload_size_mib before any byte is sent', async () => {
    const res = await as('hamlet').create(1024 * 1024 + 1);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('lets the creator abandon an upload', async () => {
    const location = (await as('hamlet').create(10)).headers.location;
    expect((await as('hamlet').terminate(location)).status).toBe(204);
    expect((await as('hamlet').head(location)).status).toBe(404);
  });

  it('answers protocol errors and missing credentials in the envelope', async () => {
    expectError(await api.http.post(TUS).set('Tus-Resumable', '1.0.0').set('Upload-Length', '5'), 'Not logged in: API authentication or user session required', { status: 401 });
    const { email, apiKey } = api.user('hamlet');
    expectError(await api.http.post(TUS).auth(email, apiKey).set('Upload-Length', '5'), 'Tus-Resumable Required', { status: 412 });
    const missingLength = await api.http.post(TUS).auth(email, apiKey).set('Tus-Resumable', '1.0.0');
    expect(missingLength.status).toBe(400);
    expect(JSON.parse(missingLength.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });
});
