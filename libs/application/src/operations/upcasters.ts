import type { Upcaster } from '../shared/event-upcasting';
import { confirmationKeyDigest } from '../shared/confirmation-keys';
import { UpcasterRegistry } from '../shared/event-upcasting';
import { legacyPushUpcasters } from '../push-devices/legacy-push-secrets';
import { legacyCredentialUpcasters } from '../users/legacy-credentials';

/**
 * UserStatusChanged v1 → v2. Version 1 carried the status emoji as one nested object
 * (`emoji: {name, code, reactionType}`, `null` to clear it); version 2 carries Zulip's three
 * request fields flat (`emojiName`, `emojiCode`, `reactionType`), each optional, as
 * do_update_user_status takes them, so that an update can change the text alone. A v1 event
 * that already has the flat shape (written before versions were tracked per type) is left as is.
 */
export const userStatusChangedV1: Upcaster = {
  type: 'UserStatusChanged',
  fromVersion: 1,
  upcast(data: Record<string, unknown>) {
    if (!('emoji' in data)) return data;
    const { emoji, ...rest } = data as { emoji: { name: string; code: string; reactionType: string } | null };
    return emoji === null || emoji === undefined
      ? { ...rest, emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' }
      : { ...rest, emojiName: emoji.name, emojiCode: emoji.code, reactionType: emoji.reactionType };
  },
};

/**
 * EmailChangeRequested v1 → v2. Version 1 carried the confirmation key itself (`token`) and the keys
 * it revoked (`revokedTokens`); version 2 carries only their SHA-256 digests (`keyDigest`,
 * `revokedKeyDigests`): the key is a secret (docs/security.md). Links mailed before the upgrade keep
 * working, since following one presents the key, whose digest is what v2 holds. (The v1 events still
 * hold the keys in the stored log until the credential migration rewrites them; they expire in a day.)
 */
export function emailChangeRequestedDigests(data: Record<string, unknown>): Record<string, unknown> {
  if (!('token' in data)) return data;
  const { token, revokedTokens, ...rest } = data as { token: string; revokedTokens?: string[] };
  return { ...rest, keyDigest: confirmationKeyDigest(token), revokedKeyDigests: (revokedTokens ?? []).map(confirmationKeyDigest) };
}

export const emailChangeRequestedV1: Upcaster = { type: 'EmailChangeRequested', fromVersion: 1, upcast: emailChangeRequestedDigests };

/** EmailChangeConfirmed v1 → v2: the key it confirmed (`token`) becomes its digest (`keyDigest`). */
export function emailChangeConfirmedDigest(data: Record<string, unknown>): Record<string, unknown> {
  if (!('token' in data)) return data;
  const { token, ...rest } = data as { token: string };
  return { ...rest, keyDigest: confirmationKeyDigest(token) };
}

export const emailChangeConfirmedV1: Upcaster = { type: 'EmailChangeConfirmed', fromVersion: 1, upcast: emailChangeConfirmedDigest };

/**
 * Every upcaster of the product. A payload shape change registers one here. Stored events are not
 * rewritten, except by the credential migration, which takes the secrets of old events out of the
 * log (operations/credential-migration.ts).
 */
export const ALL_UPCASTERS: readonly Upcaster[] = [
  userStatusChangedV1,
  emailChangeRequestedV1,
  emailChangeConfirmedV1,
  ...legacyCredentialUpcasters,
  ...legacyPushUpcasters,
];

export const upcasterRegistry = (): UpcasterRegistry => new UpcasterRegistry(ALL_UPCASTERS);
