import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelFoldersDecider, channelFoldersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ReorderChannelFoldersCommand } from './reorder-channel-folders.command';

@CommandHandler(ReorderChannelFoldersCommand)
export class ReorderChannelFoldersHandler implements ICommandHandler<ReorderChannelFoldersCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, order }: ReorderChannelFoldersCommand): Promise<void> {
    const { position } = await this.runner.run(channelFoldersDecider, channelFoldersStream(actor.realmId), {
      type: 'ReorderChannelFolders',
      data: { realmId: actor.realmId, actor, now: this.clock.now().toISOString(), order },
    });
    await this.projections.waitFor(position);
  }
}
