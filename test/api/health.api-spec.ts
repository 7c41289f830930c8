import { ApiTestClient } from '../support';

describe('GET /health', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: [] })));
  afterAll(() => api.close());

  it('reports every adapter ready and the projector caught up', async () => {
    const response = await api.http.get('/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      event_store: { ok: true },
      read_store: { ok: true },
      projections: { ok: true, running_here: true },
    });
    expect(response.body.projections.position).toBe(response.body.projections.head);
  });
});
