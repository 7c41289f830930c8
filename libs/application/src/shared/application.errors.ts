import { DomainError } from '@app/domain';

/** The read models did not catch up with an append in time: the write is durable, the answer is not ready. */
export class ProjectionTimeoutError extends DomainError {
  constructor(position: bigint, timeoutMs: number) {
    super(
      `The server accepted the change but could not confirm it within ${timeoutMs} ms; reload before retrying.`,
      'REQUEST_TIMEOUT',
      503,
      { position: position.toString() },
    );
  }
}

/**
 * A command that kept losing the race for its stream to other processes until its time budget
 * (COMMAND_RETRY_BUDGET_MS) ran out. Nothing was written, so the request is safe to repeat.
 *
 * 503 with Retry-After (RFC 9110 §15.6.4), not Zulip's 429 RATE_LIMIT_HIT: the caller sent nothing
 * too fast, the server is busy with other writers of the same data; clients treat a 5xx as a
 * server-side failure (the python bindings retry it), and a rate-limit answer would tell the user
 * to slow down. The code is Zulip's REQUEST_TIMEOUT (the request waited past its time); the body
 * carries Zulip's `retry-after` field as well as the header (docs/consistency-boundaries.md).
 */
export class ServerBusyError extends DomainError {
  constructor(readonly retryAfterSeconds = 1) {
    super(
      `The server is busy with other changes to the same data; nothing was changed. Retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
      'REQUEST_TIMEOUT',
      503,
      { 'retry-after': retryAfterSeconds },
    );
  }
}
