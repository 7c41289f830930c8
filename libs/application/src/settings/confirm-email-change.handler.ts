import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfirmationLinkError, userSettingsDecider, userSettingsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeUserEmailCommand } from '../users/change-user-email.command';
import { UserQueries } from '../users/user.queries';
import { actorFromUser } from '../users/user-format';
import { ConfirmEmailChangeCommand } from './confirm-email-change.command';
import { UserSettingsQueries } from './user-settings.queries';

/**
 * confirm_email_change: an unknown link "does not exist"; a used, revoked or expired one has
 * "expired". The users stream takes the new address first (and refuses it if another account took
 * it meanwhile, leaving the link usable); then the link is marked used on the user's settings stream.
 */
@CommandHandler(ConfirmEmailChangeCommand)
export class ConfirmEmailChangeHandler implements ICommandHandler<ConfirmEmailChangeCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly settings: UserSettingsQueries,
    private readonly users: UserQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ token }: ConfirmEmailChangeCommand): Promise<{ oldEmail: string; newEmail: string }> {
    const change = await this.settings.emailChange(token);
    if (!change) throw ConfirmationLinkError.doesNotExist();
    const now = this.clock.now();
    if (change.status !== 'pending' || now.getTime() > Date.parse(change.expires_at)) throw ConfirmationLinkError.expired();
    const user = await this.users.mustFindById(change.realm_id, change.user_id);
    if (user.delivery_email !== change.old_email) throw ConfirmationLinkError.expired();
    const actor = actorFromUser(user);
    await this.commands.execute(new ChangeUserEmailCommand({ actor }, user.user_id, change.new_email));
    const { position } = await this.runner.run(userSettingsDecider, userSettingsStream(user.user_id), {
      type: 'ConfirmEmailChange',
      data: { realmId: change.realm_id, userId: user.user_id, actorId: user.user_id, now: now.toISOString(), token },
    });
    await this.projections.waitFor(position);
    return { oldEmail: change.old_email, newEmail: change.new_email };
  }
}
