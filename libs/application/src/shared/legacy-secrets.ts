import type { CredentialKind } from '../ports/credential-store.port';

/**
 * A secret found in an event written before secrets left the log (issue 35), and the credential
 * store entry it belongs in. An old event's entries are named after the event (`<kind>:<event
 * id>`), so the upcasters (pure: they drop the secret and name the entry) and the migration (which
 * stores the secret under that name and rewrites the event) agree on them.
 */
export type LegacySecret = { id: string; kind: CredentialKind; secret: string };

export const legacyEntryId = (eventId: string, kind: CredentialKind): string => `${kind}:${eventId}`;

/** An old event's payload in its current shape, and the secrets it held (none for an event already in the current shape). */
export type LegacySecretSplit = { data: Record<string, unknown>; secrets: LegacySecret[] };
