import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { mutedUsersDecider, mutedUsersStream, type Actor } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ownUserId } from '../shared/own-user-id';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user.queries';
import { MuteUserCommand, UnmuteUserCommand } from './mute-user.command';

/**
 * Both directions on the muting user's stream. Whether the target exists is a fact of the users
 * read model (access_user_by_id_including_cross_realm with allow_bots and allow_deactivated).
 */
abstract class MutingHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    private readonly clock: ClockPort,
  ) {}

  protected async run(type: 'MuteUser' | 'UnmuteUser', actor: Actor, mutedUserId: number): Promise<void> {
    const userId = ownUserId(actor);
    const targetExists = (await this.users.byId(actor.realmId, mutedUserId)) !== null;
    const { position } = await this.runner.run(mutedUsersDecider, mutedUsersStream(userId), {
      type,
      data: { userId, now: this.clock.now().toISOString(), mutedUserId, targetExists },
    });
    await this.projections.waitFor(position);
  }
}

@CommandHandler(MuteUserCommand)
export class MuteUserHandler extends MutingHandler implements ICommandHandler<MuteUserCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, users: UserQueries, @Inject(CLOCK) clock: ClockPort) {
    super(runner, projections, users, clock);
  }

  execute({ context: { actor }, mutedUserId }: MuteUserCommand): Promise<void> {
    return this.run('MuteUser', actor, mutedUserId);
  }
}

@CommandHandler(UnmuteUserCommand)
export class UnmuteUserHandler extends MutingHandler implements ICommandHandler<UnmuteUserCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, users: UserQueries, @Inject(CLOCK) clock: ClockPort) {
    super(runner, projections, users, clock);
  }

  execute({ context: { actor }, mutedUserId }: UnmuteUserCommand): Promise<void> {
    return this.run('UnmuteUser', actor, mutedUserId);
  }
}
