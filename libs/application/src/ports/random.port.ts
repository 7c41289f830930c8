/** Secrets and unique tokens come from here, so that tests may make them predictable. */
export interface RandomPort {
  /** `length` characters of [A-Za-z0-9] from a CSPRNG (Zulip's API keys are 32 of these). */
  alphanumeric(length: number): string;
  uuid(): string;
  /**
   * A UUID whose first 48 bits are the current time in milliseconds (RFC 9562 version 7), the
   * rest random: ids drawn later sort after (commands' ids; the event ids derived from them then
   * land at the end of the event log's id index instead of anywhere in it). Optional: without
   * it, `uuid()` is used.
   */
  timeOrderedUuid?(): string;
}
