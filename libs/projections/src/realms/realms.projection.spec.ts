import { realmCreated, recorded, replay } from '@app/testing';
import { realmsProjection } from './realms.projection';

describe('realmsProjection', () => {
  it('stores an organization as the API describes it, with date_created in Unix seconds', () => {
    const docs = replay(
      realmsProjection,
      recorded([realmCreated({ realmId: 3, stringId: 'lear', name: 'Lear & Co', description: 'A **kingdom**', at: '2026-01-02T00:00:01.900Z' })], 'realm_registry-server'),
    );
    expect([...docs.keys()]).toEqual(['3']);
    expect(docs.get('3')).toEqual({
      id: 3,
      string_id: 'lear',
      name: 'Lear & Co',
      description: 'A **kingdom**',
      date_created: Date.UTC(2026, 0, 2, 0, 0, 1) / 1000,
      deactivated: false,
    });
  });

  it('keeps one document per organization', () => {
    const docs = replay(
      realmsProjection,
      recorded([realmCreated({ realmId: 1, stringId: 'acme' }), realmCreated({ realmId: 2, stringId: 'lear', name: 'Lear' })], 'realm_registry-server'),
    );
    expect([...docs.values()].map((d) => [d.id, d.string_id, d.name])).toEqual([
      [1, 'acme', 'Acme'],
      [2, 'lear', 'Lear'],
    ]);
  });

  it('ignores events of other types', () => {
    expect(replay(realmsProjection, recorded([{ type: 'UserCreated', data: { realmId: 1, userId: 1 } }])).size).toBe(0);
  });

  it('is idempotent under redelivery', () => {
    const events = recorded([realmCreated({ realmId: 1 })], 'realm_registry-server');
    expect(replay(realmsProjection, [...events, ...events])).toEqual(replay(realmsProjection, events));
  });

  it('indexes string_id uniquely (the subdomain lookup)', () => {
    expect(realmsProjection.collection.fields).toContainEqual({ name: 'string_id', type: 'string' });
    expect(realmsProjection.collection.unique).toContainEqual(['string_id']);
  });
});
