import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NoSuchUserError, usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { RandomPort } from '../ports/random.port';
import { CLOCK, RANDOM } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { API_KEY_LENGTH } from './passwords';
import { RegenerateApiKeyCommand } from './regenerate-api-key.command';

@CommandHandler(RegenerateApiKeyCommand)
export class RegenerateApiKeyHandler implements ICommandHandler<RegenerateApiKeyCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(RANDOM) private readonly random: RandomPort,
  ) {}

  async execute({ context: { actor }, userId }: RegenerateApiKeyCommand) {
    const target = userId ?? actor.userId;
    if (target === null) throw new NoSuchUserError();
    const apiKey = this.random.alphanumeric(API_KEY_LENGTH);
    const { position } = await this.runner.run(usersDecider, usersStream(actor.realmId), {
      type: 'RegenerateApiKey',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), userId: target, apiKey },
    });
    await this.projections.waitFor(position);
    return { apiKey };
  }
}
