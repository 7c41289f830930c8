import { ApiTestClient, expectError, expectSuccess } from '../support';

const ATTACHMENTS = '/api/v1/attachments';

/** zerver/tests/test_attachments.py (GET and DELETE /attachments) through the real HTTP stack. */
describe('attachments', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const upload = async (who: string, name: string, data: string) => {
    const { email, apiKey } = api.user(who);
    return expectSuccess(await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from(data), name)) as { url: string };
  };
  const list = async (who: string) => expectSuccess(await api.as(who).get(ATTACHMENTS));
  const sendPrivate = async (who: string, to: string, content: string) =>
    expectSuccess(await api.as(who).post('/api/v1/messages', { type: 'direct', to: JSON.stringify([api.user(to).userId]), content })).id as number;

  describe('GET /attachments', () => {
    it("lists the caller's uploads as Attachment summaries with the organization's used space", async () => {
      expect(await list('hamlet')).toEqual({ result: 'success', msg: '', attachments: [], upload_space_used: 0 });
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      await upload('cordelia', 'c.txt', 'cc');
      const { attachments, upload_space_used } = await list('hamlet');
      expect(attachments).toEqual([
        { id: expect.any(Number), name: 'a.txt', path_id: a.url.replace('/user_uploads/', ''), size: 4, create_time: Math.floor(api.clock.now().getTime() / 1000), message_ids: [] },
      ]);
      expect(upload_space_used).toBe(6);
    });

    it('lists the messages of the uploader that link the file', async () => {
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      const first = await sendPrivate('hamlet', 'cordelia', `[a.txt](${a.url})`);
      const second = await sendPrivate('hamlet', 'iago', `again: ${a.url} and http://localhost${a.url}`);
      await sendPrivate('cordelia', 'hamlet', `quoting ${a.url}`); // not the uploader's message: not claimed
      expect((await list('hamlet')).attachments[0].message_ids).toEqual([first, second]);
    });
  });

  describe('editing and deleting the linking messages', () => {
    const canRead = async (who: string, url: string) => {
      const { email, apiKey } = api.user(who);
      return (await api.http.get(url).auth(email, apiKey)).status;
    };

    it('an edit that removes the link releases the file, one that adds it back claims it again', async () => {
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      const id = await sendPrivate('hamlet', 'cordelia', `[a.txt](${a.url})`);
      expect(await canRead('cordelia', a.url)).toBe(200);
      expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${id}`, { content: 'never mind' }));
      expect((await list('hamlet')).attachments[0].message_ids).toEqual([]);
      expect(await canRead('cordelia', a.url)).toBe(403);
      expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${id}`, { content: `here: ${a.url}` }));
      expect((await list('hamlet')).attachments[0].message_ids).toEqual([id]);
      expect(await canRead('cordelia', a.url)).toBe(200);
    });

    it("an edit removing the file's only link answers it in detached_uploads", async () => {
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      const kept = await upload('hamlet', 'b.txt', 'bb');
      const id = await sendPrivate('hamlet', 'cordelia', `[a.txt](${a.url}) [b.txt](${kept.url})`);
      await sendPrivate('hamlet', 'iago', `b again: ${kept.url}`);
      const [attachmentA] = (await list('hamlet')).attachments;

      const edited = expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${id}`, { content: `only [b.txt](${kept.url})` }));

      expect(edited.detached_uploads).toEqual([{ ...attachmentA, message_ids: [] }]);
      const again = expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${id}`, { content: 'nothing linked' }));
      expect(again.detached_uploads).toEqual([]); // b.txt is still linked from the message to iago
    });

    it('a message moved into a private channel shares the file only with readers there', async () => {
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'open' }], principals: [api.user('cordelia').userId, api.user('hamlet').userId, api.user('iago').userId] }));
      expectSuccess(
        await api.as('iago').post('/api/v1/users/me/subscriptions', {
          subscriptions: [{ name: 'secret' }],
          invite_only: true,
          history_public_to_subscribers: false,
          principals: [api.user('iago').userId, api.user('hamlet').userId],
        }),
      );
      const secretId = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'secret' })).stream_id;
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      const { id } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'open', topic: 'files', content: `[a.txt](${a.url})` }));
      expect(await canRead('cordelia', a.url)).toBe(200);

      expectSuccess(await api.as('iago').patch(`/api/v1/messages/${id}`, { stream_id: secretId, propagate_mode: 'change_one' }));

      expect(await canRead('cordelia', a.url)).toBe(403);
      expect(await canRead('iago', a.url)).toBe(200);
    });

    it('a deleted message no longer lists or shares the file', async () => {
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      const id = await sendPrivate('hamlet', 'cordelia', `[a.txt](${a.url})`);
      expectSuccess(await api.as('hamlet').delete(`/api/v1/messages/${id}`));
      expect((await list('hamlet')).attachments[0].message_ids).toEqual([]);
      expect(await canRead('cordelia', a.url)).toBe(403);
    });
  });

  describe('DELETE /attachments/{attachment_id}', () => {
    it('deletes the file: gone from the list, its link answers 404, the space is freed', async () => {
      const a = await upload('hamlet', 'a.txt', 'aaaa');
      const [{ id }] = (await list('hamlet')).attachments;
      expectSuccess(await api.as('hamlet').delete(`${ATTACHMENTS}/${id}`));
      expect(await list('hamlet')).toMatchObject({ attachments: [], upload_space_used: 0 });
      const { email, apiKey } = api.user('hamlet');
      expect((await api.http.get(a.url).auth(email, apiKey)).status).toBe(404);
      expect((await api.newEvents()).map((e) => e.type)).toEqual(['AttachmentUploaded', 'AttachmentDeleted']);
    });

    it('"Invalid attachment" for an unknown id, an already deleted one, and somebody else\'s', async () => {
      await upload('hamlet', 'a.txt', 'aaaa');
      const [{ id }] = (await list('hamlet')).attachments;
      expectError(await api.as('cordelia').delete(`${ATTACHMENTS}/${id}`), 'Invalid attachment', { code: 'BAD_REQUEST', status: 400 });
      expectError(await api.as('iago').delete(`${ATTACHMENTS}/${id}`), 'Invalid attachment');
      expectError(await api.as('hamlet').delete(`${ATTACHMENTS}/424242`), 'Invalid attachment');
      expectSuccess(await api.as('hamlet').delete(`${ATTACHMENTS}/${id}`));
      expectError(await api.as('hamlet').delete(`${ATTACHMENTS}/${id}`), 'Invalid attachment');
    });

    it('answers 404 for a non-numeric id', async () =>
      expectError(await api.as('hamlet').delete(`${ATTACHMENTS}/abc`), 'Not Found', { status: 404 }));
  });
});
