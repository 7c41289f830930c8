import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { renameTarget, userProfileDecider, userProfileStream, usersDecider, usersStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeUserFullNameCommand } from './change-user-full-name.command';
import { UserQueries } from './user.queries';

/**
 * A human's name changes on their own stream, `user_profile-<userId>`, so that renaming never
 * contends with the directory (docs/consistency-boundaries.md); who may rename whom is read from
 * the directory first. A bot's name stays on `users-<realmId>`: it must be unique among active
 * accounts, and the humans' current names come from the read models.
 */
@CommandHandler(ChangeUserFullNameCommand)
export class ChangeUserFullNameHandler implements ICommandHandler<ChangeUserFullNameCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, userId, fullName }: ChangeUserFullNameCommand): Promise<void> {
    const meta = { realmId: actor.realmId, actorId: actor.userId, now: this.clock.now().toISOString() };
    const target = renameTarget(await this.runner.read(usersDecider, usersStream(actor.realmId)), actor.userId, userId);
    const { position } = target.isBot
      ? await this.runner.run(usersDecider, usersStream(actor.realmId), {
          type: 'ChangeUserFullName',
          data: { ...meta, userId, fullName, activeHumanNames: await this.users.activeHumanNames(actor.realmId) },
        })
      : await this.runner.run(userProfileDecider, userProfileStream(userId), { type: 'ChangeFullName', data: { ...meta, userId, fullName, currentName: target.fullName } });
    await this.projections.waitFor(position);
  }
}
