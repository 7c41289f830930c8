import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { realmDecider, realmStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeactivateRealmCommand } from './deactivate-realm.command';
import { RealmQueries } from './realm.queries';

@CommandHandler(DeactivateRealmCommand)
export class DeactivateRealmHandler implements ICommandHandler<DeactivateRealmCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly realms: RealmQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, reason }: DeactivateRealmCommand): Promise<void> {
    await this.realms.mustFindById(actor.realmId);
    const { position } = await this.runner.run(realmDecider, realmStream(actor.realmId), {
      type: 'DeactivateRealm',
      data: { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString(), reason },
    });
    await this.projections.waitFor(position);
  }
}
