import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Actor, type ChangeMessageFlags, checkFlagChange, clampFlagRange, messageFlagsDecider, messageFlagsStream, NoSuchUserError } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { MessageQueries } from './message.queries';
import {
  type FlagsForNarrowResult,
  MarkAllAsReadCommand,
  MarkChannelAsReadCommand,
  MarkTopicAsReadCommand,
  UpdateMessageFlagsCommand,
  UpdateMessageFlagsForNarrowCommand,
  type UpdateMessageFlagsResult,
} from './message-flags.command';
import { MessageFlagsFactsLoader, type ResolvedFlagChange } from './message-flags.facts-loader';

/*
 * Personal flag changes (zerver/views/message_flags.py, zerver/actions/message_flags.py): each
 * command resolves what it selects and counts what would change (MessageFlagsFactsLoader), then
 * messageFlagsDecider records one `MessageFlagsChanged` on `message_flags-<userId>` through the
 * DeciderRunner; the user-messages bulk projection applies it with one UPDATE per level of the
 * store, and the answer waits for the projection.
 */

function flagUserId(actor: Actor): number {
  if (actor.userId === null) throw new NoSuchUserError();
  return actor.userId;
}

/** The handlers' common dependencies and their one write: decide, append (stateless stream, expectedRevision `any`), wait. */
abstract class FlagChangeRecorder {
  constructor(
    protected readonly facts: MessageFlagsFactsLoader,
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly clock: ClockPort,
  ) {}

  /** The number of rows changed (0: nothing recorded). */
  protected async record(actor: Actor, userId: number, change: ResolvedFlagChange): Promise<number> {
    const command: ChangeMessageFlags = {
      type: 'ChangeMessageFlags',
      data: {
        realmId: actor.realmId,
        userId,
        flag: change.flag,
        op: change.op,
        selection: change.selection,
        updatedCount: change.updatedCount,
        ...(change.changedIds !== undefined ? { changedIds: change.changedIds } : {}),
        at: this.clock.now().toISOString(),
      },
    };
    const { newEvents, position } = await this.runner.run(messageFlagsDecider, messageFlagsStream(userId), command, { actorId: actor.userId }, { stateless: true });
    if (newEvents.length === 0) return 0;
    await this.projections.waitFor(position);
    return change.updatedCount;
  }
}

@CommandHandler(UpdateMessageFlagsCommand)
export class UpdateMessageFlagsHandler extends FlagChangeRecorder implements ICommandHandler<UpdateMessageFlagsCommand> {
  constructor(facts: MessageFlagsFactsLoader, runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort) {
    super(facts, runner, projections, clock);
  }

  async execute({ context: { actor }, request }: UpdateMessageFlagsCommand): Promise<UpdateMessageFlagsResult> {
    const userId = flagUserId(actor);
    const ids = [...new Set(request.messages)].sort((a, b) => a - b);
    const rows = await this.facts.rowsOf(userId, ids);
    const checked = checkFlagChange(request.flag, request.op);
    const change = await this.facts.overIds(actor, userId, checked, ids, rows, request.messages);
    await this.record(actor, userId, change);
    const result: UpdateMessageFlagsResult = { messages: change.processed };
    if (checked.flag === 'read' && checked.op === 'remove') result.ignored_because_not_subscribed_channels = change.ignoredChannels;
    return result;
  }
}

@CommandHandler(UpdateMessageFlagsForNarrowCommand)
export class UpdateMessageFlagsForNarrowHandler extends FlagChangeRecorder implements ICommandHandler<UpdateMessageFlagsForNarrowCommand> {
  constructor(
    private readonly messages: MessageQueries,
    facts: MessageFlagsFactsLoader,
    runner: DeciderRunner,
    projections: ProjectionWaiter,
    @Inject(CLOCK) clock: ClockPort,
  ) {
    super(facts, runner, projections, clock);
  }

  async execute({ context: { actor }, request }: UpdateMessageFlagsForNarrowCommand): Promise<FlagsForNarrowResult> {
    const userId = flagUserId(actor);
    const { numBefore, numAfter } = clampFlagRange(request.numBefore, request.numAfter);
    const range = await this.messages.rangeOf(actor, { anchor: request.anchor, includeAnchor: request.includeAnchor ?? true, numBefore, numAfter, narrow: request.narrow });
    const ids = range.matches.map((m) => m.id);
    // The matches carry the flags (null: no row).
    const rows = new Map<number, number>();
    for (const m of range.matches) if (m.flags !== null) rows.set(m.id, m.flags);
    const checked = checkFlagChange(request.flag, request.op);
    const change = await this.facts.overIds(actor, userId, checked, ids, rows, ids);
    const updatedCount = await this.record(actor, userId, change);
    const result: FlagsForNarrowResult = {
      processed_count: ids.length,
      updated_count: updatedCount,
      first_processed_id: ids.length ? ids[0] : null,
      last_processed_id: ids.length ? ids[ids.length - 1] : null,
      found_oldest: range.foundOldest,
      found_newest: range.foundNewest,
    };
    if (checked.flag === 'read' && checked.op === 'remove') result.ignored_because_not_subscribed_channels = change.ignoredChannels;
    return result;
  }
}

@CommandHandler(MarkAllAsReadCommand)
export class MarkAllAsReadHandler extends FlagChangeRecorder implements ICommandHandler<MarkAllAsReadCommand> {
  constructor(facts: MessageFlagsFactsLoader, runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort) {
    super(facts, runner, projections, clock);
  }

  async execute({ context: { actor } }: MarkAllAsReadCommand): Promise<{ complete: boolean }> {
    const userId = flagUserId(actor);
    const change = await this.facts.readUpTo(actor, userId, (upToMessageId) => ({ kind: 'all', upToMessageId }));
    if (change) await this.record(actor, userId, change);
    return { complete: true };
  }
}

@CommandHandler(MarkChannelAsReadCommand)
export class MarkChannelAsReadHandler extends FlagChangeRecorder implements ICommandHandler<MarkChannelAsReadCommand> {
  constructor(facts: MessageFlagsFactsLoader, runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort) {
    super(facts, runner, projections, clock);
  }

  async execute({ context: { actor }, streamId }: MarkChannelAsReadCommand): Promise<void> {
    const userId = flagUserId(actor);
    await this.facts.accessChannel(actor, streamId);
    const change = await this.facts.readUpTo(actor, userId, (upToMessageId) => ({ kind: 'channel', streamId, topic: null, upToMessageId }));
    if (change) await this.record(actor, userId, change);
  }
}

@CommandHandler(MarkTopicAsReadCommand)
export class MarkTopicAsReadHandler extends FlagChangeRecorder implements ICommandHandler<MarkTopicAsReadCommand> {
  constructor(facts: MessageFlagsFactsLoader, runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort) {
    super(facts, runner, projections, clock);
  }

  async execute({ context: { actor }, streamId, topicName }: MarkTopicAsReadCommand): Promise<void> {
    const userId = flagUserId(actor);
    await this.facts.accessChannel(actor, streamId);
    const topic = await this.facts.topicOf(actor, userId, streamId, topicName);
    const change = await this.facts.readUpTo(actor, userId, (upToMessageId) => ({ kind: 'channel', streamId, topic, upToMessageId }));
    if (change) await this.record(actor, userId, change);
  }
}
