import { Inject, Injectable } from '@nestjs/common';
import type { Actor, Decider, DomainEvent } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner, type RetryPolicy, type RunOptions, type RunResult } from './decider-runner';
import { ProjectionWaiter } from './projection-waiter';

/**
 * One decider's write path, in the style of emmett's `DeciderCommandHandler({ decide, evolve,
 * initialState, mapToStreamId, retry })`: the decider itself (with its snapshot codec, if any),
 * the stream a command of it runs on (named from the command: its realm, user or message id),
 * and, when its commands should wait for a busy stream longer or shorter than the runner's
 * default, its retry policy.
 */
export type DeciderCommandHandlerOptions<C, E extends DomainEvent, S> = Decider<C, E, S> & {
  mapToStreamId: (command: C) => string;
  retry?: Partial<RetryPolicy>;
};

/**
 * Runs one command of the decider (see DeciderCommands.handle): `build` gets the actor, the
 * organization and the clock's time and returns the command, typed over the decider's command
 * union (a `type` names the variant, so `data` is checked against it).
 */
export type DeciderCommandHandler<C, E extends DomainEvent> = (
  commands: DeciderCommands,
  actor: Actor,
  build: (meta: CommandMeta) => C,
  options?: HandleOptions,
) => Promise<Handled<C, E>>;

/** Declares a decider's command handler, once per decider at module level. */
export const DeciderCommandHandler =
  <C, E extends DomainEvent, S>(options: DeciderCommandHandlerOptions<C, E, S>): DeciderCommandHandler<C, E> =>
  (commands, actor, build, handleOptions) =>
    commands.handle(options, actor, build, handleOptions);

/** What the handler puts in every command it builds: who, in which organization, when (the clock's ISO time). */
export type CommandMeta = { actor: Actor; realmId: number; now: string };

/** The event-store metadata of the append (e.g. `actorId`), and how the runner reads the stream. */
export type HandleOptions = Omit<RunOptions, 'retry'> & { metadata?: Record<string, unknown> };

export type Handled<C, E> = RunResult<E> & { command: C };

/**
 * Runs a command through its decider and answers once the read models have it:
 * now → build the command → DeciderRunner.run (the stream's lock, the retry budget, snapshots)
 * → ProjectionWaiter.waitFor. A DomainError from `decide` reaches the caller unchanged and
 * nothing is appended; a command that decides nothing returns no position and waits for nothing.
 *
 * Facts the decider needs from read models (is the target a user, is the actor subscribed) are
 * the caller's to load before `handle`; what a handler answers (an id it allocated, a list read
 * after the write) it reads from the result or after it.
 */
@Injectable()
export class DeciderCommands {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async handle<C, E extends DomainEvent, S>(
    handler: DeciderCommandHandlerOptions<C, E, S>,
    actor: Actor,
    build: (meta: CommandMeta) => C,
    { metadata = {}, ...options }: HandleOptions = {},
  ): Promise<Handled<C, E>> {
    const command = build({ actor, realmId: actor.realmId, now: this.clock.now().toISOString() });
    const result = await this.runner.run(handler, handler.mapToStreamId(command), command, metadata, { ...options, retry: handler.retry });
    await this.projections.waitFor(result.position);
    return { ...result, command };
  }
}
