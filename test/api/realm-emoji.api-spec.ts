import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { TINY_GIF, TINY_JPEG, TINY_PNG, TINY_WEBP, personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** zerver/tests/test_realm_emoji.py through the real HTTP stack. */
describe('custom emoji', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  /** POST /realm/emoji/{name} with the files as multipart parts (f1, f2, …). */
  const upload = (who: string, name: string, files: Buffer[] = [TINY_PNG]) => {
    const { email, apiKey } = api.user(who);
    let request = api.http.post(`/api/v1/realm/emoji/${name}`).auth(email, apiKey);
    files.forEach((data, i) => (request = request.attach(`f${i + 1}`, data, `img${i}.bin`)));
    if (files.length === 0) request = request.field('unused', 'x');
    return request;
  };
  const emoji = async () => expectSuccess(await api.as('hamlet').get('/api/v1/realm/emoji')).emoji as Record<string, Record<string, unknown>>;
  const storedFiles = (): string[] => {
    const root = join(api.app.get<AppConfig>(APP_CONFIG).dataDir, 'blobs', 'objects');
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    } catch {
      return [];
    }
  };
  const { refused } = personaHelpers(() => api);

  describe('POST /realm/emoji/{emoji_name}', () => {
    it('adds an emoji every user sees, its image served at Zulip\'s path', async () => {
      expectSuccess(await upload('hamlet', 'my_emoji'));
      const listed = Object.values(await emoji());
      expect(listed).toEqual([
        { id: expect.stringMatching(/^\d+$/), name: 'my_emoji', source_url: expect.stringMatching(new RegExp(`^/user_avatars/${api.realmId}/emoji/images/[0-9a-f]{8}\\.png$`)), still_url: null, deactivated: false, author_id: api.user('hamlet').userId },
      ]);
      const image = await api.http.get(listed[0].source_url as string).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(image.body as Buffer, TINY_PNG)).toBe(0);
    });

    it('recognises GIF, JPEG and WebP images by their bytes, whatever their file name', async () => {
      for (const [name, data, type] of [['gif', TINY_GIF, 'image/gif'], ['jpeg', TINY_JPEG, 'image/jpeg'], ['webp', TINY_WEBP, 'image/webp']] as const) {
        expectSuccess(await upload('iago', name, [data]));
        const url = Object.values(await emoji()).find((e) => e.name === name)!.source_url as string;
        expect((await api.http.get(url)).headers['content-type']).toBe(type);
      }
    });

    it('takes a name with spaces as underscores', async () => {
      expectSuccess(await upload('hamlet', 'my%20emoji'));
      expect(Object.values(await emoji()).map((e) => e.name)).toEqual(['my_emoji']);
    });

    it('answers Zulip\'s errors and stores nothing, not even the image', async () => {
      expectSuccess(await upload('hamlet', 'taken'));
      await api.markEvents();
      const before = storedFiles();
      expect(before).toHaveLength(1);
      const names = 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
      await refused(await upload('polonius', 'guest_emoji'), 'Not allowed for guest users');
      await refused(await upload('iago', 'my_em*oji'), names);
      await refused(await upload('iago', 'my_EMoji'), names);
      await refused(await upload('iago', 'my_emoji_'), 'Emoji names must end with either a letter or digit.');
      await refused(await upload('iago', '%20'), 'Emoji name is missing');
      await refused(await upload('iago', 'taken'), 'A custom emoji with this name already exists.');
      await refused(await upload('iago', 'none', []), 'You must upload exactly one file.');
      await refused(await upload('iago', 'two', [TINY_PNG, TINY_PNG]), 'You must upload exactly one file.');
      await refused(await upload('hamlet', 'laughing'), 'Only administrators can override default emoji.');
      await refused(await upload('iago', 'big', [Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)])]), 'Uploaded file is larger than the allowed limit of 5 MiB');
      await refused(await upload('iago', 'tiff', [Buffer.from('II*\u0000 not an image we take')]), 'Invalid image format', { code: 'BAD_IMAGE' });
      await refused(await upload('iago', 'svg', [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')]), 'Invalid image format');
      expect(storedFiles()).toEqual(before);
    });

    it('lets administrators override a default emoji', async () => {
      expectSuccess(await upload('iago', 'smile'));
      expect(Object.values(await emoji())).toEqual([expect.objectContaining({ name: 'smile', author_id: api.user('iago').userId })]);
    });
  });

  describe('DELETE /realm/emoji/{emoji_name}', () => {
    it('deactivates an emoji, which stays listed and its image served', async () => {
      expectSuccess(await upload('hamlet', 'my_emoji'));
      expectSuccess(await api.as('hamlet').delete('/api/v1/realm/emoji/my_emoji'));
      const [listed] = Object.values(await emoji());
      expect(listed).toMatchObject({ name: 'my_emoji', deactivated: true });
      expect((await api.http.get(listed.source_url as string)).status).toBe(200);
    });

    it('lets the author or an administrator deactivate, nobody else', async () => {
      expectSuccess(await upload('hamlet', 'one'));
      expectSuccess(await upload('hamlet', 'two'));
      await api.markEvents();
      await refused(await api.as('cordelia').delete('/api/v1/realm/emoji/one'), 'Must be an organization administrator or emoji author');
      await refused(await api.as('polonius').delete('/api/v1/realm/emoji/one'), 'Must be an organization administrator or emoji author');
      expectSuccess(await api.as('iago').delete('/api/v1/realm/emoji/one'));
      expectSuccess(await api.as('hamlet').delete('/api/v1/realm/emoji/two'));
    });

    it('answers HTTP 404 with BAD_REQUEST for a missing or already deactivated emoji', async () => {
      await refused(await api.as('iago').delete('/api/v1/realm/emoji/invalid_emoji'), "Emoji 'invalid_emoji' does not exist", { status: 404, code: 'BAD_REQUEST' });
      expectSuccess(await upload('hamlet', 'gone'));
      expectSuccess(await api.as('hamlet').delete('/api/v1/realm/emoji/gone'));
      await api.markEvents();
      await refused(await api.as('hamlet').delete('/api/v1/realm/emoji/gone'), "Emoji 'gone' does not exist", { status: 404, code: 'BAD_REQUEST' });
    });

    it('frees the name for a new emoji', async () => {
      expectSuccess(await upload('iago', 'my_emoji'));
      expectSuccess(await api.as('iago').delete('/api/v1/realm/emoji/my_emoji'));
      expectSuccess(await upload('iago', 'my_emoji'));
      expect(Object.values(await emoji()).map((e) => [e.name, e.deactivated])).toEqual([['my_emoji', true], ['my_emoji', false]]);
    });
  });

  describe('realm_emoji events', () => {
    const queue = async (who: string, capabilities: Record<string, boolean>) => {
      const { queue_id } = expectSuccess(await api.as(who).post('/api/v1/register', { event_types: ['realm_emoji'], client_capabilities: capabilities }));
      return async () => (expectSuccess(await api.as(who).get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true })).events as Record<string, unknown>[]).map(({ id: _id, ...e }) => e);
    };

    it('sends add and update_one to clients with individual_emoji_changes (feature level 491), the whole dict in update to the others', async () => {
      const modern = await queue('cordelia', { individual_emoji_changes: true });
      const legacy = await queue('iago', {});
      expectSuccess(await upload('hamlet', 'party'));
      const [added] = Object.values(await emoji());
      expectSuccess(await api.as('hamlet').delete('/api/v1/realm/emoji/party'));
      const deactivated = { ...added, deactivated: true };
      expect(await modern()).toEqual([
        { type: 'realm_emoji', op: 'add', emoji: added },
        { type: 'realm_emoji', op: 'update_one', emoji_id: added.id, data: { deactivated: true } },
      ]);
      expect(await legacy()).toEqual([
        { type: 'realm_emoji', op: 'update', realm_emoji: { [added.id as string]: added } },
        { type: 'realm_emoji', op: 'update', realm_emoji: { [added.id as string]: deactivated } },
      ]);
    });
  });

  it('answers 404 for an image that does not exist', async () => {
    expect((await api.http.get(`/user_avatars/${api.realmId}/emoji/images/00000000.png`)).status).toBe(404);
    expect((await api.http.get(`/user_avatars/${api.realmId}/emoji/images/..%2F..%2Fevents.sqlite`)).status).toBe(404);
  });
});
