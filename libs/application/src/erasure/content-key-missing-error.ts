/**
 * What the operator does when the event log's sealed texts cannot be opened: the three files
 * belong together (docs/deployment.md, "Backups").
 */
export const RESTORE_KEYS_ADVICE =
  'restore content-keys.sqlite and credentials.key (or CREDENTIALS_KEY) from the same backup as events.sqlite (docs/deployment.md, "Backups")';

/**
 * A sealed event whose key this installation cannot open: the key is not in the content-key store
 * (`missing`: DATA_DIR/content-keys.sqlite, or MongoDB's `content_keys`, is not the one the log was
 * written with), or it is there but does not unwrap (`wrong-kek`: the key-encryption key,
 * credentials.key or CREDENTIALS_KEY, is not the one the store was written with).
 *
 * Not a transient failure: retrying reads the same bytes with the same keys. Whoever reads the log
 * (the projector, the reactors, the boot check) stops on it instead of retrying, and the process
 * exits at boot with this message (a destroyed key is not this error: its texts read as erased).
 */
export class ContentKeyMissingError extends Error {
  constructor(
    readonly keyId: string,
    readonly reason: 'missing' | 'wrong-kek',
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'missing'
        ? `the event log was sealed with keys that are not in DATA_DIR/content-keys.sqlite (content key ${keyId} is not in the content-key store); ${RESTORE_KEYS_ADVICE}`
        : `the content keys in DATA_DIR/content-keys.sqlite do not open with this key-encryption key (content key ${keyId} does not unwrap: credentials.key or CREDENTIALS_KEY is not the one the keys were written with); ${RESTORE_KEYS_ADVICE}`,
      options,
    );
    this.name = 'ContentKeyMissingError';
  }
}

/** Whether reading the log failed for good (no retry helps): a sealed text this installation has no key for. */
export function isContentKeyMissing(error: unknown): error is ContentKeyMissingError {
  return error instanceof ContentKeyMissingError;
}
