import { channelFoldersStream } from '@app/domain';
import { folderCreated, personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** zerver/tests/test_channel_folders.py through the real HTTP stack. */
describe('channel folders', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const CREATE = '/api/v1/channel_folders/create';
  const create = async (name: string, description = '') => expectSuccess(await api.as('iago').post(CREATE, { name, description })).channel_folder_id as number;
  const list = async (who = 'hamlet', query: Record<string, unknown> = {}) => expectSuccess(await api.as(who).get('/api/v1/channel_folders', query)).channel_folders;
  const { createChannel, refused } = personaHelpers(() => api);
  const channel = (name: string) => createChannel('iago', name);

  describe('POST /channel_folders/create', () => {
    it('creates a folder every member can list, with its rendered description, order, creator and date', async () => {
      const id = await create('Backend', 'Channels for **backend** discussions');
      expect(await list('polonius')).toEqual([
        {
          id, name: 'Backend', description: 'Channels for **backend** discussions',
          rendered_description: '<p>Channels for <strong>backend</strong> discussions</p>', order: id,
          creator_id: api.user('iago').userId, date_created: Math.floor(api.clock.now().getTime() / 1000), is_archived: false,
        },
      ]);
    });

    it('accepts the multipart shape zulip-js sends', async () => {
      const body = expectSuccess(await api.as('desdemona').postMultipart(CREATE, { name: 'Frontend', description: '' }));
      expect(body.channel_folder_id).toEqual(expect.any(Number));
    });

    it('is for administrators: UNAUTHORIZED_PRINCIPAL otherwise', async () => {
      await api.markEvents();
      await refused(await api.as('shiva').post(CREATE, { name: 'Frontend', description: '' }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      await refused(await api.as('hamlet').post(CREATE, { name: 'Frontend', description: '' }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
    });

    it('requires both parameters; the description may be empty', async () => {
      await api.markEvents();
      await refused(await api.as('iago').post(CREATE, { name: 'Frontend' }), "Missing 'description' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      await refused(await api.as('iago').post(CREATE, { description: '' }), "Missing 'name' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    });

    it('checks the name and the limits', async () => {
      await api.markEvents();
      await refused(await api.as('iago').post(CREATE, { name: '', description: 'x' }), "Channel folder name can't be empty.");
      await refused(await api.as('iago').post(CREATE, { name: 'abc\u0000', description: 'x' }), 'Invalid character in channel folder name, at position 4.');
      await refused(await api.as('iago').post(CREATE, { name: 'x'.repeat(61), description: '' }), 'name is too long (limit: 60 characters)');
      await refused(await api.as('iago').post(CREATE, { name: 'ok', description: 'd'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
    });

    it('given an existing folder, refuses its name in any case and appends nothing', async () => {
      await api.givenEvents(channelFoldersStream(api.realmId), [folderCreated({ realmId: api.realmId, folderId: 1, name: 'Frontend' })]);
      await refused(await api.as('iago').post(CREATE, { name: 'frontEND', description: '' }), 'Channel folder name already in use');
    });
  });

  describe('GET /channel_folders', () => {
    it('leaves archived folders out unless asked, sorted by order', async () => {
      const a = await create('A');
      const b = await create('B');
      expectSuccess(await api.as('iago').patch(`/api/v1/channel_folders/${a}`, { is_archived: true }));
      expect((await list()).map((f: { id: number }) => f.id)).toEqual([b]);
      expect((await list('hamlet', { include_archived: true })).map((f: { id: number }) => f.id)).toEqual([a, b]);
    });

    it('refuses a non-boolean include_archived', async () => {
      expectError(await api.as('hamlet').get('/api/v1/channel_folders', { include_archived: 'maybe' }), 'include_archived is not valid JSON');
    });
  });

  describe('PATCH /channel_folders/{id}', () => {
    it('renames and re-describes', async () => {
      const id = await create('Frontend', 'old');
      expectSuccess(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { name: 'Web frontend', description: 'Channels for **frontend** discussions' }));
      expect(await list()).toEqual([expect.objectContaining({ name: 'Web frontend', rendered_description: '<p>Channels for <strong>frontend</strong> discussions</p>' })]);
      expectSuccess(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { description: '' }));
      expect(await list()).toEqual([expect.objectContaining({ description: '', rendered_description: '' })]);
    });

    it('accepts the parameters in the query string, as some clients send PATCH', async () => {
      const id = await create('Frontend');
      const { email, apiKey } = api.user('iago');
      expectSuccess(await api.http.patch(`/api/v1/channel_folders/${id}`).query({ name: 'Web' }).auth(email, apiKey));
      expect((await list())[0].name).toBe('Web');
    });

    it('answers Zulip\'s errors, changing nothing', async () => {
      const id = await create('Frontend');
      await create('Backend');
      await api.markEvents();
      await refused(await api.as('hamlet').patch(`/api/v1/channel_folders/${id}`, { name: 'x' }), 'Must be an organization administrator');
      await refused(await api.as('iago').patch('/api/v1/channel_folders/999', { name: 'x' }), 'Invalid channel folder ID');
      await refused(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { name: '' }), "Channel folder name can't be empty.");
      await refused(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { name: 'backEND' }), 'Channel folder name already in use');
      await refused(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { name: 'abc\u0000' }), 'Invalid character in channel folder name, at position 4.');
      await refused(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { name: 'ok', is_archived: 'yes' }), 'is_archived is not valid JSON');
    });

    it('archives only a folder without channels, archived channels included', async () => {
      const id = await create('Frontend');
      const verona = await channel('Verona');
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${verona}`, { folder_id: id }));
      await api.markEvents();
      const message = 'You need to remove all the channels from this folder to archive it.';
      await refused(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { is_archived: true }), message);
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${verona}`));
      await api.markEvents();
      await refused(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { is_archived: true }), message);
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${verona}`, { folder_id: null }));
      expectSuccess(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { is_archived: true }));
      expectSuccess(await api.as('iago').patch(`/api/v1/channel_folders/${id}`, { is_archived: false }));
      expect(await list()).toEqual([expect.objectContaining({ id, is_archived: false })]);
    });
  });

  describe('PATCH /channel_folders (reorder)', () => {
    it('orders the folders as given', async () => {
      const [a, b, c] = [await create('A'), await create('B'), await create('C')];
      expectSuccess(await api.as('iago').patch('/api/v1/channel_folders', { order: [c, a, b] }));
      expect((await list()).map((f: { id: number; order: number }) => [f.id, f.order])).toEqual([[c, 0], [a, 1], [b, 2]]);
    });

    it('needs every folder, archived ones too', async () => {
      const [a, b] = [await create('A'), await create('B')];
      expectSuccess(await api.as('iago').patch(`/api/v1/channel_folders/${b}`, { is_archived: true }));
      await api.markEvents();
      await refused(await api.as('iago').patch('/api/v1/channel_folders', { order: [a] }), 'Invalid order mapping.');
      await refused(await api.as('iago').patch('/api/v1/channel_folders', { order: [100, 200, 300] }), 'Invalid order mapping.');
      await refused(await api.as('hamlet').patch('/api/v1/channel_folders', { order: [b, a] }), 'Must be an organization administrator');
      await refused(await api.as('iago').patch('/api/v1/channel_folders', { order: '[1,' }), 'order is not valid JSON');
    });
  });

  describe('folder_id of PATCH /streams/{id}', () => {
    it('shows a channel\'s folder in its stream object', async () => {
      const id = await create('Frontend');
      const verona = await channel('Verona');
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${verona}`, { folder_id: id, description: 'In a folder' }));
      expect(expectSuccess(await api.as('iago').get(`/api/v1/streams/${verona}`)).stream).toMatchObject({ folder_id: id, description: 'In a folder' });
    });

    it('refuses a folder that does not exist, and a channel the caller may not administer', async () => {
      const verona = await channel('Verona');
      const id = await create('Frontend');
      await api.markEvents();
      await refused(await api.as('iago').patch(`/api/v1/streams/${verona}`, { folder_id: 999 }), 'Invalid channel folder ID');
      await refused(await api.as('hamlet').patch(`/api/v1/streams/${verona}`, { folder_id: id }), 'You do not have permission to administer this channel.');
      await refused(await api.as('iago').patch(`/api/v1/streams/${verona}`, { folder_id: '"x"' }), 'folder_id is not an integer');
    });
  });
});
