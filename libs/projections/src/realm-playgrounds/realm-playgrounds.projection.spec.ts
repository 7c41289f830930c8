import { recorded, replay } from '@app/testing';
import { realmPlaygroundsProjection } from './realm-playgrounds.projection';

const docs = (events: { type: string; data: object }[]) => replay(realmPlaygroundsProjection, recorded(events));
const PYTHON = { name: 'Python playground', pygmentsLanguage: 'Python', urlTemplate: 'https://python.example.com?code={code}' };
const added = (playgroundId: number) => ({ type: 'RealmPlaygroundAdded', data: { realmId: 1, playgroundId, ...PYTHON, actorId: 2, at: 'x' } });
const removed = (playgroundId: number) => ({ type: 'RealmPlaygroundRemoved', data: { realmId: 1, playgroundId, ...PYTHON, actorId: 2, at: 'x' } });

describe('realmPlaygroundsProjection', () => {
  it("stores a playground with Zulip's names", () =>
    expect(docs([added(3)]).get('3')).toEqual({ id: 3, realm_id: 1, name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' }));

  it('forgets a removed playground', () => expect([...docs([added(1), added(2), removed(1)]).keys()]).toEqual(['2']));

  it('gives the same documents when an event is delivered twice', () => {
    const [first, second] = recorded([added(1), removed(1)]);
    expect(replay(realmPlaygroundsProjection, [first, first, second, second])).toEqual(replay(realmPlaygroundsProjection, [first, second]));
  });
});
