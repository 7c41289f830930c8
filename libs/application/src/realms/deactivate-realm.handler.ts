import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { realmHandler } from './realm.decider-handler';
import { DeactivateRealmCommand } from './deactivate-realm.command';
import { RealmQueries } from './realm.queries';

@CommandHandler(DeactivateRealmCommand)
export class DeactivateRealmHandler implements ICommandHandler<DeactivateRealmCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly realms: RealmQueries,
  ) {}

  async execute({ context: { actor }, reason }: DeactivateRealmCommand): Promise<void> {
    await this.realms.mustFindById(actor.realmId);
    await realmHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'DeactivateRealm',
      data: { realmId, actorId: actor.userId, now, reason },
    }));
  }
}
