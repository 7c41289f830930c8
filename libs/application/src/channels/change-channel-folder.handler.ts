import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelsDecider, channelsStream } from '@app/domain';
import { ChannelFolderQueries } from '../channel-folders/channel-folder.queries';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { ChangeChannelFolderCommand } from './change-channel-folder.command';

@CommandHandler(ChangeChannelFolderCommand)
export class ChangeChannelFolderHandler implements ICommandHandler<ChangeChannelFolderCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly subscriptions: SubscriptionQueries,
    private readonly folders: ChannelFolderQueries,
  ) {}

  async execute({ context: { actor }, channelId, folderId }: ChangeChannelFolderCommand): Promise<void> {
    const [isSubscribed, folder] = await Promise.all([
      this.subscriptions.isSubscribed(actor.userId, channelId),
      folderId === null ? null : this.folders.byId(actor.realmId, folderId),
    ]);
    const { position } = await this.runner.run(channelsDecider, channelsStream(actor.realmId), {
      type: 'ChangeChannelFolder',
      data: { realmId: actor.realmId, actor, now: this.clock.now().toISOString(), channelId, isSubscribed, folderId, folderExists: folder !== null },
    });
    await this.projections.waitFor(position);
  }
}
