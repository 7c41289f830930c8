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

/** Optimistic-concurrency conflicts that persisted after every retry. */
export class ConcurrentModificationError extends DomainError {
  constructor() {
    super('Another change to the same data was made at the same time; please retry.', 'CONCURRENT_MODIFICATION', 409);
  }
}
