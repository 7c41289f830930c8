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
};

export const foldEvents = <E, S>(decider: Pick<Decider<unknown, E, S>, 'evolve' | 'initialState'>, events: E[]): S =>
  events.reduce(decider.evolve, decider.initialState());
