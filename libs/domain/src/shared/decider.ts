/**
 * A decider holds the write-side rules of one consistency boundary (one stream).
 * `decide` and `evolve` are pure: time, new ids and outside facts arrive inside the command.
 */
export type Decider<Command, Event, State> = {
  /** Returns the events the command produces, or throws a DomainError. `[]` means "nothing to do". */
  decide: (command: Command, state: State) => Event[];
  /** Total and tolerant: an event it does not know leaves the state unchanged. */
  evolve: (state: State, event: Event) => State;
  initialState: () => State;
  /**
   * How the command path may keep this decider's folded state as a snapshot, so that a command
   * reads only the events after it (docs/operations.md, "Command reads and snapshots"). Without it the stream is read
   * whole on every command.
   */
  snapshot?: SnapshotCodec<State>;
};

/**
 * A decider's folded state as JSON. `name` tells deciders apart; `version` goes up whenever the
 * state's shape or the fold changes in a way a stored snapshot would not reflect (a snapshot of
 * another version is ignored). States that are plain JSON (records, arrays, strings, numbers,
 * booleans, null) need no `encode`/`decode`; a state holding a Map, a Set or a Date must give both.
 */
export type SnapshotCodec<State> = {
  name: string;
  version: number;
  /** The state as a JSON-serialisable value (identity when absent). */
  encode?: (state: State) => unknown;
  /** The state back from what `encode` produced, after a JSON round trip (identity when absent). */
  decode?: (json: any) => State;
  /**
   * Streams whose snapshots an event of this decider makes something to erase (a deleted message's
   * own, its reactions' and its submessages': they hold its text). The runner deletes them once
   * the event is appended (docs/security.md, "Read models").
   */
  forgets?: (event: { type: string; data: unknown }) => string[];
};

export const foldEvents = <E, S>(decider: Pick<Decider<unknown, E, S>, 'evolve' | 'initialState'>, events: E[]): S =>
  events.reduce(decider.evolve, decider.initialState());
