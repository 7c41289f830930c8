import type { Upcaster } from '../shared/event-upcasting';
import { legacyEntryId, type LegacySecret, type LegacySecretSplit } from '../shared/legacy-secrets';

/**
 * Events written before issue 35 carried the secrets themselves: `UserCreated.apiKey` and
 * `.passwordHash`, `UserApiKeyRegenerated.apiKey`, `UserPasswordChanged.passwordHash` (schema
 * version 1). Version 2 names credential store entries instead. An old event's entries are named
 * after the event (`api_key:<event id>`, `password:<event id>`), so the upcaster (pure) and the
 * migration (which moves the secret into the store and rewrites the event) agree on them.
 */
export const LEGACY_CREDENTIAL_TYPES = ['UserCreated', 'UserApiKeyRegenerated', 'UserPasswordChanged'] as const;

export const legacyCredentialId = legacyEntryId;

/**
 * An old event's payload in the current shape, and the secrets it held. An event already in the
 * current shape comes back unchanged, with no secrets.
 */
export function splitLegacyCredentials(eventId: string, data: Record<string, unknown>): LegacySecretSplit {
  if (!('apiKey' in data) && !('passwordHash' in data)) return { data, secrets: [] };
  const { apiKey, passwordHash, ...rest } = data as { apiKey?: unknown; passwordHash?: unknown };
  const out: Record<string, unknown> = { ...rest };
  const secrets: LegacySecret[] = [];
  if ('apiKey' in data) {
    out.apiKeyId = legacyCredentialId(eventId, 'api_key');
    if (typeof apiKey === 'string') secrets.push({ id: out.apiKeyId as string, kind: 'api_key', secret: apiKey });
  }
  if ('passwordHash' in data) {
    out.passwordId = typeof passwordHash === 'string' ? legacyCredentialId(eventId, 'password') : null;
    if (typeof passwordHash === 'string') secrets.push({ id: out.passwordId as string, kind: 'password', secret: passwordHash });
  }
  return { data: out, secrets };
}

/** v1 → v2 of the three event types: the secrets out, the entries' names in. */
export const legacyCredentialUpcasters: Upcaster[] = LEGACY_CREDENTIAL_TYPES.map((type) => ({
  type,
  fromVersion: 1,
  upcast: (data: Record<string, unknown>, event) => splitLegacyCredentials(event.id, data).data,
}));
