import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { realmPlaygroundsDecider, realmPlaygroundsStream } from '@app/domain';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { ID_ALLOCATOR } from '../ports/tokens';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { AddRealmPlaygroundCommand, RemoveRealmPlaygroundCommand } from './realm-playground.command';

/** The playground commands: one append on `realm_playgrounds-<realmId>`. */
const playgrounds = DeciderCommandHandler({ ...realmPlaygroundsDecider, mapToStreamId: ({ data }) => realmPlaygroundsStream(data.realmId) });

@CommandHandler(AddRealmPlaygroundCommand)
export class AddRealmPlaygroundHandler implements ICommandHandler<AddRealmPlaygroundCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context, playground }: AddRealmPlaygroundCommand) {
    const playgroundId = await this.ids.next('realm_playground');
    await playgrounds(this.commands, context.actor, (meta) => ({ type: 'AddRealmPlayground', data: { playgroundId, ...playground, ...meta } }));
    return { id: playgroundId };
  }
}

@CommandHandler(RemoveRealmPlaygroundCommand)
export class RemoveRealmPlaygroundHandler implements ICommandHandler<RemoveRealmPlaygroundCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, playgroundId }: RemoveRealmPlaygroundCommand) {
    await playgrounds(this.commands, context.actor, (meta) => ({ type: 'RemoveRealmPlayground', data: { ...meta, playgroundId } }));
  }
}
