import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelFoldersDecider, channelFoldersStream, checkChannelFolderDescription, checkChannelFolderName } from '@app/domain';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { CreateChannelFolderCommand } from './create-channel-folder.command';

@CommandHandler(CreateChannelFolderCommand)
export class CreateChannelFolderHandler implements ICommandHandler<CreateChannelFolderCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    private readonly renderer: ChannelDescriptionRenderer,
  ) {}

  async execute({ context: { actor }, name, description }: CreateChannelFolderCommand) {
    // Cheap checks before an id is spent and the description rendered; the decider checks again.
    checkChannelFolderDescription(description);
    checkChannelFolderName(name);
    const renderedDescription = await this.renderer.render(description, { realmId: actor.realmId, actorId: actor.userId });
    const folderId = await this.ids.next('channel_folder');
    const { position } = await this.runner.run(channelFoldersDecider, channelFoldersStream(actor.realmId), {
      type: 'CreateChannelFolder',
      data: { realmId: actor.realmId, actor, now: this.clock.now().toISOString(), folderId, name, description, renderedDescription },
    });
    await this.projections.waitFor(position);
    return { folderId };
  }
}
