/** Secrets and unique tokens come from here, so that tests may make them predictable. */
export interface RandomPort {
  /** `length` characters of [A-Za-z0-9] from a CSPRNG (Zulip's API keys are 32 of these). */
  alphanumeric(length: number): string;
  uuid(): string;
}
