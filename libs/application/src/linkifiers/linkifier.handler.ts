import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { linkifiersDecider, linkifiersStream } from '@app/domain';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { ID_ALLOCATOR } from '../ports/tokens';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { AddLinkifierCommand, RemoveLinkifierCommand, ReorderLinkifiersCommand, UpdateLinkifierCommand } from './linkifier.command';

/** The linkifier commands: one append on `realm_linkifiers-<realmId>`. */
const linkifiers = DeciderCommandHandler({ ...linkifiersDecider, mapToStreamId: ({ data }) => linkifiersStream(data.realmId) });

@CommandHandler(AddLinkifierCommand)
export class AddLinkifierHandler implements ICommandHandler<AddLinkifierCommand> {
  constructor(private readonly commands: DeciderCommands, @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort) {}

  async execute({ context, pattern, urlTemplate }: AddLinkifierCommand) {
    const linkifierId = await this.ids.next('linkifier');
    await linkifiers(this.commands, context.actor, (meta) => ({ type: 'AddLinkifier', data: { ...meta, linkifierId, pattern, urlTemplate } }));
    return { id: linkifierId };
  }
}

@CommandHandler(UpdateLinkifierCommand)
export class UpdateLinkifierHandler implements ICommandHandler<UpdateLinkifierCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, linkifierId, pattern, urlTemplate }: UpdateLinkifierCommand) {
    await linkifiers(this.commands, context.actor, (meta) => ({ type: 'UpdateLinkifier', data: { ...meta, linkifierId, pattern, urlTemplate } }));
  }
}

@CommandHandler(RemoveLinkifierCommand)
export class RemoveLinkifierHandler implements ICommandHandler<RemoveLinkifierCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, linkifierId }: RemoveLinkifierCommand) {
    await linkifiers(this.commands, context.actor, (meta) => ({ type: 'RemoveLinkifier', data: { ...meta, linkifierId } }));
  }
}

@CommandHandler(ReorderLinkifiersCommand)
export class ReorderLinkifiersHandler implements ICommandHandler<ReorderLinkifiersCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, orderedIds }: ReorderLinkifiersCommand) {
    await linkifiers(this.commands, context.actor, (meta) => ({ type: 'ReorderLinkifiers', data: { ...meta, orderedIds } }));
  }
}
