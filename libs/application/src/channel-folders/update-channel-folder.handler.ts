import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelFoldersDecider, channelFoldersStream } from '@app/domain';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChannelFolderQueries } from './channel-folder.queries';
import { UpdateChannelFolderCommand } from './update-channel-folder.command';

@CommandHandler(UpdateChannelFolderCommand)
export class UpdateChannelFolderHandler implements ICommandHandler<UpdateChannelFolderCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly folders: ChannelFolderQueries,
    private readonly renderer: ChannelDescriptionRenderer,
  ) {}

  async execute({ context: { actor }, folderId, changes }: UpdateChannelFolderCommand): Promise<void> {
    // Facts from other streams: the channels in the folder (only needed to archive it).
    const channelsInFolder = changes.isArchived === true ? await this.folders.channelsInFolder(actor.realmId, folderId) : 0;
    const description = changes.description === undefined
      ? undefined
      : { text: changes.description, rendered: await this.renderer.render(changes.description, { realmId: actor.realmId, actorId: actor.userId }) };
    const { position } = await this.runner.run(channelFoldersDecider, channelFoldersStream(actor.realmId), {
      type: 'UpdateChannelFolder',
      data: {
        realmId: actor.realmId, actor, now: this.clock.now().toISOString(), folderId, name: changes.name, description,
        isArchived: changes.isArchived, channelsInFolder,
      },
    });
    await this.projections.waitFor(position);
  }
}
