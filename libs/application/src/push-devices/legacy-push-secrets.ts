import { type PushDeviceEvent, pushDevicesDecider } from '@app/domain';
import type { PushSecretKind } from '../ports/credential-store.port';
import type { Upcaster } from '../shared/event-upcasting';
import { legacyEntryId, type LegacySecret, type LegacySecretSplit } from '../shared/legacy-secrets';
import { pushSecretDigest } from './push-secrets';

/**
 * Push-device events written before push secrets left the log (schema version 1) carried them:
 * `PushDeviceRegistered.pushKey` and `.encryptedPushRegistration`, `PushKeyRotated.pushKey`,
 * `PushTokenRotated.encryptedPushRegistration`, `LegacyPushTokenAdded.token` and
 * `LegacyPushTokenRemoved.token`. Version 2 names credential store entries (`push_key:<event id>`,
 * `push_registration:<event id>`, `push_token:<event id>` for old events) and carries the
 * digests the decider compares. Old events release nothing (`releasedEntryIds: []`): the entries
 * they would have released were never stored.
 */
export const LEGACY_PUSH_TYPES = ['PushDeviceRegistered', 'PushKeyRotated', 'PushTokenRotated', 'LegacyPushTokenAdded', 'LegacyPushTokenRemoved'] as const;

const SECRET_FIELDS = ['pushKey', 'encryptedPushRegistration', 'token'];

export const isLegacyPushEvent = (type: string, data: unknown): boolean =>
  (LEGACY_PUSH_TYPES as readonly string[]).includes(type) && typeof data === 'object' && data !== null && SECRET_FIELDS.some((field) => field in data);

/** An old push-device event in the current shape, and the secrets it held; an event already in the current shape comes back unchanged. */
export function splitLegacyPushSecrets(eventId: string, type: string, data: Record<string, unknown>): LegacySecretSplit {
  if (!isLegacyPushEvent(type, data)) return { data, secrets: [] };
  const { pushKey, encryptedPushRegistration, token, ...rest } = data as { pushKey?: unknown; encryptedPushRegistration?: unknown; token?: unknown };
  const out: Record<string, unknown> = { ...rest };
  const secrets: LegacySecret[] = [];
  const entry = (kind: PushSecretKind, secret: unknown): string => {
    const id = legacyEntryId(eventId, kind);
    if (typeof secret === 'string') secrets.push({ id, kind, secret });
    return id;
  };
  if ('pushKey' in data) {
    out.pushKeyEntryId = entry('push_key', pushKey);
    out.pushKeyDigest = pushSecretDigest(String(pushKey));
  }
  if ('encryptedPushRegistration' in data) out.registrationEntryId = entry('push_registration', encryptedPushRegistration);
  if (type !== 'LegacyPushTokenAdded' && type !== 'LegacyPushTokenRemoved') out.releasedEntryIds = [];
  if ('token' in data) {
    out.tokenDigest = pushSecretDigest(String(token));
    // A removal's entry is its addition's, which the migration stored under the addition's name.
    if (type === 'LegacyPushTokenAdded') out.tokenEntryId = entry('push_token', token);
  }
  return { data: out, secrets };
}

/** v1 → v2 of the five event types: the secrets out, the entries' names and the digests in. */
export const legacyPushUpcasters: Upcaster[] = LEGACY_PUSH_TYPES.map((type) => ({
  type,
  fromVersion: 1,
  upcast: (data: Record<string, unknown>, event) => splitLegacyPushSecrets(event.id, type, data).data,
}));

/**
 * The entries a user's push registrations use once all of `events` (their stream, in order, in
 * the current shape) have happened: the migration stores an old event's secret only if it is one
 * of these, so a key, registration or token replaced or removed before the migration never enters
 * the credential store.
 */
export function livePushEntries(events: readonly PushDeviceEvent[]): Set<string> {
  const state = events.reduce(pushDevicesDecider.evolve, pushDevicesDecider.initialState());
  const live = new Set<string>();
  for (const device of Object.values(state.devices)) if (device) for (const id of [device.pushKeyEntryId, device.registrationEntryId]) live.add(id);
  for (const legacy of state.legacy) live.add(legacy.tokenEntryId);
  return live;
}
