import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { REALM_REGISTRY_STREAM, realmRegistryDecider } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { CreateRealmCommand } from './create-realm.command';

@CommandHandler(CreateRealmCommand)
export class CreateRealmHandler implements ICommandHandler<CreateRealmCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ stringId, name, description }: CreateRealmCommand) {
    const { newEvents, position } = await this.runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, {
      type: 'CreateRealm',
      data: { stringId, name, description, now: this.clock.now().toISOString() },
    });
    await this.projections.waitFor(position);
    return { realmId: newEvents[0].data.realmId };
  }
}
