import { ProjectionWaiter } from '@app/application';
import { CheckpointWaiter, Projector } from '@app/projections';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * The jest project `split` (SPLIT_LAYOUT=1): what the other suites of that project run against is
 * really the split layout — a worker with the projectors, two API applications without, personas
 * spread over them — and a write through one API application is read through the other at once.
 */
describe('the split layout under test', () => {
  let api: ApiTestClient;
  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] });
  });
  afterAll(() => api.close());

  it('runs a worker with the projectors and two API applications waiting on its checkpoints', () => {
    expect(api.apps).toHaveLength(2);
    expect(api.background.get(Projector)).toBeInstanceOf(Projector);
    for (const app of api.apps) {
      expect(app.get(ProjectionWaiter)).toBeInstanceOf(CheckpointWaiter);
      expect(() => app.get(Projector)).toThrow();
    }
    expect(api.appFor('hamlet')).not.toBe(api.appFor('cordelia'));
  });

  it('a send through one API application is in the other one\'s answer right after', async () => {
    const cordelia = api.user('cordelia').userId;
    for (let i = 0; i < 10; i++) {
      const { id } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: [cordelia], content: `across ${i}` }));
      const { messages } = expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 }));
      expect(messages.map((m: { id: number }) => m.id)).toEqual([id]);
      const edited = expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${id}`, { content: `edited ${i}` }));
      expect(edited.result).toBe('success');
      const { message } = expectSuccess(await api.as('cordelia').get(`/api/v1/messages/${id}`));
      expect(message.content).toBe(`<p>edited ${i}</p>`);
    }
  });
});
