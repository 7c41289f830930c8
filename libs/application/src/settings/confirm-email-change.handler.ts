import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ConfirmationLinkError, userSettingsDecider, userSettingsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { Mailer } from '../email/mailer';
import { RealmQueries } from '../realms/realm.queries';
import { confirmationKeyDigest } from '../shared/confirmation-keys';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeUserEmailCommand } from '../users/change-user-email.command';
import { UserQueries } from '../users/user.queries';
import { actorFromUser } from '../users/user-format';
import { ConfirmEmailChangeCommand } from './confirm-email-change.command';
import { EmailChangeChecks } from './email-change.checks';
import { notifyChangeInEmailMail } from './email-change.mails';
import { UserSettingsQueries } from './user-settings.queries';

/**
 * confirm_email_change: the link carries the key, found by its digest. An unknown link "does not
 * exist"; a used, revoked or expired one has "expired". Zulip's rules are checked again at this
 * moment (validate_email_change_request): the account is active, changes of address are allowed
 * (`email_changes_disabled`, administrators exempt), the address is still free. The users stream
 * takes the new address (and refuses it if another account took it meanwhile, leaving the link
 * usable); then the link is marked used on the user's settings stream, and the old address is told.
 */
@CommandHandler(ConfirmEmailChangeCommand)
export class ConfirmEmailChangeHandler implements ICommandHandler<ConfirmEmailChangeCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly settings: UserSettingsQueries,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly emailChecks: EmailChangeChecks,
    private readonly mailer: Mailer,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ key }: ConfirmEmailChangeCommand): Promise<{ oldEmail: string; newEmail: string }> {
    const keyDigest = confirmationKeyDigest(key);
    const change = await this.settings.emailChange(keyDigest);
    if (!change) throw ConfirmationLinkError.doesNotExist();
    const now = this.clock.now();
    if (change.status !== 'pending' || now.getTime() > Date.parse(change.expires_at)) throw ConfirmationLinkError.expired();
    const user = await this.users.mustFindById(change.realm_id, change.user_id);
    // A newer request revokes older links, so this is not expected (Zulip double-checks too).
    if (user.delivery_email !== change.old_email) throw ConfirmationLinkError.expired();
    const actor = actorFromUser(user);
    await this.emailChecks.checkAllowed(actor, user.is_active);
    await this.emailChecks.check(change.realm_id, change.new_email);
    await this.commands.execute(new ChangeUserEmailCommand({ actor }, user.user_id, change.new_email));
    const { position } = await this.runner.run(userSettingsDecider, userSettingsStream(user.user_id), {
      type: 'ConfirmEmailChange',
      data: { realmId: change.realm_id, userId: user.user_id, actorId: user.user_id, now: now.toISOString(), keyDigest },
    });
    await this.projections.waitFor(position);
    const realm = await this.realms.mustFindById(change.realm_id);
    await this.mailer.send(notifyChangeInEmailMail({ realmName: realm.name, oldEmail: change.old_email, newEmail: change.new_email }));
    return { oldEmail: change.old_email, newEmail: change.new_email };
  }
}
