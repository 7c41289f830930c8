/**
 * Integer ids as the API returns them. Within one sequence, ids are unique and increase in the
 * order they are allocated, across every process sharing the store.
 */
export interface IdAllocatorPort {
  next(sequence: string): Promise<number>;
  /** `count` consecutive ids; returns the first. */
  nextBlock(sequence: string, count: number): Promise<number>;
}
