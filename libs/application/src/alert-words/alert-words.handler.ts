import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { alertWordsDecider, alertWordsStream, type Actor } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ownUserId } from '../shared/own-user-id';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { AlertWordQueries } from './alert-word.queries';
import { AddAlertWordsCommand, RemoveAlertWordsCommand } from './alert-words.command';

/** Both directions on the user's stream `alert_words-<userId>`; the answer is the list once the read model has it. */
abstract class AlertWordsHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly queries: AlertWordQueries,
    private readonly clock: ClockPort,
  ) {}

  protected async run(type: 'AddAlertWords' | 'RemoveAlertWords', actor: Actor, words: string[]): Promise<string[]> {
    const userId = ownUserId(actor);
    const { position } = await this.runner.run(alertWordsDecider, alertWordsStream(userId), {
      type,
      data: { realmId: actor.realmId, userId, now: this.clock.now().toISOString(), words },
    });
    if (position !== undefined) await this.projections.waitFor(position);
    return this.queries.wordsOf(userId);
  }
}

@CommandHandler(AddAlertWordsCommand)
export class AddAlertWordsHandler extends AlertWordsHandler implements ICommandHandler<AddAlertWordsCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, queries: AlertWordQueries, @Inject(CLOCK) clock: ClockPort) {
    super(runner, projections, queries, clock);
  }

  execute({ context: { actor }, words }: AddAlertWordsCommand): Promise<string[]> {
    return this.run('AddAlertWords', actor, words);
  }
}

@CommandHandler(RemoveAlertWordsCommand)
export class RemoveAlertWordsHandler extends AlertWordsHandler implements ICommandHandler<RemoveAlertWordsCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, queries: AlertWordQueries, @Inject(CLOCK) clock: ClockPort) {
    super(runner, projections, queries, clock);
  }

  execute({ context: { actor }, words }: RemoveAlertWordsCommand): Promise<string[]> {
    return this.run('RemoveAlertWords', actor, words);
  }
}
