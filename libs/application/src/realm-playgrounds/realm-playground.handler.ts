import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { realmPlaygroundsDecider, realmPlaygroundsStream, type RealmPlaygroundsCommand } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { AddRealmPlaygroundCommand, RemoveRealmPlaygroundCommand } from './realm-playground.command';

type Body<T extends RealmPlaygroundsCommand['type']> = Omit<Extract<RealmPlaygroundsCommand, { type: T }>['data'], 'realmId' | 'actor' | 'now'>;

/** The write path of the playground commands: one append on `realm_playgrounds-<realmId>`. */
abstract class RealmPlaygroundsHandler {
  constructor(
    protected readonly runner: DeciderRunner,
    protected readonly projections: ProjectionWaiter,
    @Inject(CLOCK) protected readonly clock: ClockPort,
  ) {}

  protected async run<T extends RealmPlaygroundsCommand['type']>({ actor }: CommandContext, type: T, body: Body<T>): Promise<void> {
    const command = { type, data: { ...body, realmId: actor.realmId, actor, now: this.clock.now().toISOString() } } as unknown as RealmPlaygroundsCommand;
    const { position } = await this.runner.run(realmPlaygroundsDecider, realmPlaygroundsStream(actor.realmId), command);
    await this.projections.waitFor(position);
  }
}

@CommandHandler(AddRealmPlaygroundCommand)
export class AddRealmPlaygroundHandler extends RealmPlaygroundsHandler implements ICommandHandler<AddRealmPlaygroundCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort, @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort) {
    super(runner, projections, clock);
  }

  async execute({ context, playground }: AddRealmPlaygroundCommand) {
    const playgroundId = await this.ids.next('realm_playground');
    await this.run(context, 'AddRealmPlayground', { playgroundId, ...playground });
    return { id: playgroundId };
  }
}

@CommandHandler(RemoveRealmPlaygroundCommand)
export class RemoveRealmPlaygroundHandler extends RealmPlaygroundsHandler implements ICommandHandler<RemoveRealmPlaygroundCommand> {
  execute({ context, playgroundId }: RemoveRealmPlaygroundCommand) {
    return this.run(context, 'RemoveRealmPlayground', { playgroundId });
  }
}
