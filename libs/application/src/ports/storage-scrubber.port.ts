/** What one scrub did: the databases it went through, and how many it could not finish (busy readers). */
export type ScrubResult = { databases: number; incomplete: number };

/**
 * Erased bytes out of the files the read models and snapshots live in (docs/security.md, "Read
 * models"). Deleting a row is not enough on SQLite: the page that held it goes first to the WAL,
 * and with it every earlier version of the page; `secure_delete` zeroes the freed space, and a
 * `wal_checkpoint(TRUNCATE)` copies the scrubbed pages into the database and empties the WAL.
 * Embedded: SqliteWalScrubber; servers (MongoDB): nothing to do here (see the docs).
 */
export interface StorageScrubberPort {
  /**
   * Asks for a scrub soon: an erasure (a deleted message) has just been written to the read models.
   * Requests close together make one scrub; a scrub that could not finish is tried again later.
   */
  request(): void;

  /** Scrubs now (tests, the CLI, after a purge). */
  scrubNow(): Promise<ScrubResult>;

  close(): Promise<void>;
}
