import { recorded, replay } from '@app/testing';
import { linkifiersProjection } from './linkifiers.projection';

const docs = (events: { type: string; data: object }[]) => replay(linkifiersProjection, recorded(events));
const added = (linkifierId: number, pattern: string, order: number) => ({
  type: 'LinkifierAdded', data: { realmId: 1, linkifierId, pattern, urlTemplate: `https://x.test/{id}`, order, actorId: 2, at: 'x' },
});

describe('linkifiersProjection', () => {
  it("stores a linkifier with Zulip's names", () =>
    expect(docs([added(3, '#(?P<id>\\d+)', 0)]).get('3')).toEqual({ id: 3, realm_id: 1, pattern: '#(?P<id>\\d+)', url_template: 'https://x.test/{id}', order: 0 }));

  it('follows changes, reorders and removal', () => {
    const changed = { type: 'LinkifierChanged', data: { realmId: 1, linkifierId: 1, pattern: 'PR(?P<id>\\d+)', urlTemplate: 'https://y.test/{id}', actorId: 2, at: 'x' } };
    expect(docs([added(1, 'a', 0), changed]).get('1')).toMatchObject({ pattern: 'PR(?P<id>\\d+)', url_template: 'https://y.test/{id}' });
    const reordered = { type: 'LinkifiersReordered', data: { realmId: 1, orderedIds: [2, 1], positions: { 1: 1, 2: 0 }, actorId: 2, at: 'x' } };
    const both = docs([added(1, 'a', 0), added(2, 'b', 1), reordered]);
    expect([both.get('1')!.order, both.get('2')!.order]).toEqual([1, 0]);
    const removed = { type: 'LinkifierRemoved', data: { realmId: 1, linkifierId: 1, pattern: 'a', urlTemplate: 'u', actorId: 2, at: 'x' } };
    expect(docs([added(1, 'a', 0), removed]).size).toBe(0);
  });

  it('gives the same documents when an event is delivered twice', () => {
    const [first, second] = recorded([added(1, 'a', 0), added(2, 'b', 1)]);
    expect(replay(linkifiersProjection, [first, second, second])).toEqual(replay(linkifiersProjection, [first, second]));
  });
});
