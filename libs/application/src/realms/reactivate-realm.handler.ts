import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { realmHandler } from './realm.decider-handler';
import { ReactivateRealmCommand } from './reactivate-realm.command';
import { RealmQueries } from './realm.queries';

@CommandHandler(ReactivateRealmCommand)
export class ReactivateRealmHandler implements ICommandHandler<ReactivateRealmCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly realms: RealmQueries,
  ) {}

  async execute({ context: { actor } }: ReactivateRealmCommand): Promise<void> {
    await this.realms.mustFindById(actor.realmId);
    await realmHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ReactivateRealm',
      data: { realmId, actorId: actor.userId, now },
    }));
  }
}
