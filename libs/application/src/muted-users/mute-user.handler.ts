import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { mutedUsersDecider, mutedUsersStream, type Actor } from '@app/domain';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { ownUserId } from '../shared/own-user-id';
import { UserQueries } from '../users/user.queries';
import { MuteUserCommand, UnmuteUserCommand } from './mute-user.command';

/** Both directions on the muting user's stream. */
const mutedUsers = DeciderCommandHandler({ ...mutedUsersDecider, mapToStreamId: ({ data }) => mutedUsersStream(data.userId) });

/**
 * Whether the target exists is a fact of the users read model
 * (access_user_by_id_including_cross_realm with allow_bots and allow_deactivated).
 */
async function change(commands: DeciderCommands, users: UserQueries, type: 'MuteUser' | 'UnmuteUser', actor: Actor, mutedUserId: number): Promise<void> {
  const userId = ownUserId(actor);
  const targetExists = (await users.byId(actor.realmId, mutedUserId)) !== null;
  await mutedUsers(commands, actor, ({ now }) => ({ type, data: { userId, now, mutedUserId, targetExists } }));
}

@CommandHandler(MuteUserCommand)
export class MuteUserHandler implements ICommandHandler<MuteUserCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly users: UserQueries,
  ) {}

  execute({ context: { actor }, mutedUserId }: MuteUserCommand): Promise<void> {
    return change(this.commands, this.users, 'MuteUser', actor, mutedUserId);
  }
}

@CommandHandler(UnmuteUserCommand)
export class UnmuteUserHandler implements ICommandHandler<UnmuteUserCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly users: UserQueries,
  ) {}

  execute({ context: { actor }, mutedUserId }: UnmuteUserCommand): Promise<void> {
    return change(this.commands, this.users, 'UnmuteUser', actor, mutedUserId);
  }
}
