import type { Decider } from '@app/domain';

/**
 * Given/when/then for deciders, after Oskar Dudycz's DeciderSpecification:
 *   given([...past events]).when(command).then([...expected events])
 */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return (givenEvents: E[]) => ({
    when: (command: C) => {
      const act = () => decider.decide(command, givenEvents.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: E[]) => expect(act()).toEqual(expected),
        /** Each expected entry is a partial shape of the event at that index (nested data may be partial). */
        thenMatches: (expected: object[]) => expect(act()).toMatchObject(expected),
        thenNothingHappened: () => expect(act()).toEqual([]),
        thenThrows: (error: new (...args: any[]) => Error, message?: string | RegExp) => {
          expect(act).toThrow(error);
          if (message !== undefined) expect(act).toThrow(message);
        },
        /** The events, for assertions the helpers above do not cover. */
        events: act,
      };
    },
  });
}
