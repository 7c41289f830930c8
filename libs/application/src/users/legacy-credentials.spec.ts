import type { RecordedEvent } from '../ports/event-store.port';
import { UpcasterRegistry } from '../shared/event-upcasting';
import { legacyCredentialUpcasters, splitLegacyCredentials } from './legacy-credentials';

const KEY = 'A'.repeat(32);
const HASH = '$2a$12$legacyhashlegacyhashlegacyhashlegacyhashlegacyhash12';
const recorded = (type: string, data: object, schemaVersion = 1): RecordedEvent =>
  ({ id: 'ev-1', streamId: 'users-1', revision: 0n, position: 1n, type, data, metadata: { schemaVersion }, recordedAt: '2026-01-01T00:00:00.000Z' }) as RecordedEvent;

describe('events written with secrets (schema version 1)', () => {
  const registry = new UpcasterRegistry(legacyCredentialUpcasters);

  it('split into the current shape, naming entries after the event, and the secrets to store', () => {
    expect(splitLegacyCredentials('ev-1', { userId: 10, apiKey: KEY, passwordHash: HASH })).toEqual({
      data: { userId: 10, apiKeyId: 'api_key:ev-1', passwordId: 'password:ev-1' },
      secrets: [
        { id: 'api_key:ev-1', kind: 'api_key', secret: KEY },
        { id: 'password:ev-1', kind: 'password', secret: HASH },
      ],
    });
    expect(splitLegacyCredentials('ev-2', { userId: 31, apiKey: KEY, passwordHash: null })).toEqual({
      data: { userId: 31, apiKeyId: 'api_key:ev-2', passwordId: null },
      secrets: [{ id: 'api_key:ev-2', kind: 'api_key', secret: KEY }],
    });
    const current = { userId: 10, apiKeyId: 'k', passwordId: null };
    expect(splitLegacyCredentials('ev-3', current)).toEqual({ data: current, secrets: [] });
  });

  it('read back upcast: no secret reaches a projection or a decider', () => {
    for (const type of ['UserCreated', 'UserApiKeyRegenerated', 'UserPasswordChanged']) expect(registry.currentVersion(type)).toBe(2);
    expect(registry.upcast(recorded('UserCreated', { userId: 10, apiKey: KEY, passwordHash: HASH })).data).toEqual({ userId: 10, apiKeyId: 'api_key:ev-1', passwordId: 'password:ev-1' });
    expect(registry.upcast(recorded('UserApiKeyRegenerated', { userId: 10, apiKey: KEY })).data).toEqual({ userId: 10, apiKeyId: 'api_key:ev-1' });
    expect(registry.upcast(recorded('UserPasswordChanged', { userId: 10, passwordHash: HASH })).data).toEqual({ userId: 10, passwordId: 'password:ev-1' });
    const migrated = recorded('UserCreated', { userId: 10, apiKeyId: 'api_key:ev-1', passwordId: null }, 2);
    expect(registry.upcast(migrated)).toBe(migrated);
  });
});
