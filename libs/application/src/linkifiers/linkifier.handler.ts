import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { linkifiersDecider, linkifiersStream, type LinkifiersCommand } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { AddLinkifierCommand, RemoveLinkifierCommand, ReorderLinkifiersCommand, UpdateLinkifierCommand } from './linkifier.command';

type Body<T extends LinkifiersCommand['type']> = Omit<Extract<LinkifiersCommand, { type: T }>['data'], 'realmId' | 'actor' | 'now'>;

/** The write path shared by the linkifier commands: one append on `realm_linkifiers-<realmId>`. */
abstract class LinkifiersHandler {
  constructor(
    protected readonly runner: DeciderRunner,
    protected readonly projections: ProjectionWaiter,
    @Inject(CLOCK) protected readonly clock: ClockPort,
  ) {}

  protected async run<T extends LinkifiersCommand['type']>({ actor }: CommandContext, type: T, body: Body<T>): Promise<void> {
    const command = { type, data: { ...body, realmId: actor.realmId, actor, now: this.clock.now().toISOString() } } as unknown as LinkifiersCommand;
    const { position } = await this.runner.run(linkifiersDecider, linkifiersStream(actor.realmId), command);
    await this.projections.waitFor(position);
  }
}

@CommandHandler(AddLinkifierCommand)
export class AddLinkifierHandler extends LinkifiersHandler implements ICommandHandler<AddLinkifierCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort, @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort) {
    super(runner, projections, clock);
  }

  async execute({ context, pattern, urlTemplate }: AddLinkifierCommand) {
    const linkifierId = await this.ids.next('linkifier');
    await this.run(context, 'AddLinkifier', { linkifierId, pattern, urlTemplate });
    return { id: linkifierId };
  }
}

@CommandHandler(UpdateLinkifierCommand)
export class UpdateLinkifierHandler extends LinkifiersHandler implements ICommandHandler<UpdateLinkifierCommand> {
  execute({ context, linkifierId, pattern, urlTemplate }: UpdateLinkifierCommand) {
    return this.run(context, 'UpdateLinkifier', { linkifierId, pattern, urlTemplate });
  }
}

@CommandHandler(RemoveLinkifierCommand)
export class RemoveLinkifierHandler extends LinkifiersHandler implements ICommandHandler<RemoveLinkifierCommand> {
  execute({ context, linkifierId }: RemoveLinkifierCommand) {
    return this.run(context, 'RemoveLinkifier', { linkifierId });
  }
}

@CommandHandler(ReorderLinkifiersCommand)
export class ReorderLinkifiersHandler extends LinkifiersHandler implements ICommandHandler<ReorderLinkifiersCommand> {
  execute({ context, orderedIds }: ReorderLinkifiersCommand) {
    return this.run(context, 'ReorderLinkifiers', { orderedIds });
  }
}
