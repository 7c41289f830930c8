import type { RealmCreated } from '@app/domain';

export const realmCreated = (overrides: Partial<RealmCreated['data']> = {}): RealmCreated => ({
  type: 'RealmCreated',
  data: { realmId: 1, stringId: 'acme', name: 'Acme', description: '', at: '2026-01-01T00:00:00.000Z', ...overrides },
});
