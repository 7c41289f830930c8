import type { GlobalPosition } from './event-store.port';

/**
 * Integer ids as the API returns them. Within one sequence, ids are unique and increase in the
 * order they are allocated, across every process sharing the store.
 */
export interface IdAllocatorPort {
  next(sequence: string): Promise<number>;
  /** `count` consecutive ids; returns the first. */
  nextBlock(sequence: string, count: number): Promise<number>;
  /** Moves the sequence so that the next id is above `atLeast` (never backwards; no id is consumed). */
  advanceTo(sequence: string, atLeast: number): Promise<void>;
  /**
   * The log position up to which the sequences were advanced past the ids the log holds
   * (undefined: never, e.g. a store that was just dropped), kept beside the sequences.
   */
  logScannedThrough(): Promise<GlobalPosition | undefined>;
  /** Records that the log was scanned up to `position` (never moves backwards). */
  markLogScanned(position: GlobalPosition): Promise<void>;
}
