import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import {
  type Actor,
  DomainError,
  NewPasswordTooWeakError,
  WrongPasswordError,
  checkFullName,
  checkSettingValue,
  isStrongEnoughPassword,
  pythonStrip,
  userSettingsDecider,
  userSettingsStream,
  EmailChangeRateLimitedError,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { GlobalPosition } from '../ports/event-store.port';
import type { RandomPort } from '../ports/random.port';
import { RATE_LIMIT_STORE, type RateLimitStorePort } from '../ports/rate-limit-store.port';
import { APP_CONFIG, CLOCK, RANDOM } from '../ports/tokens';
import { Mailer } from '../email/mailer';
import { confirmationKeyDigest, newConfirmationKey } from '../shared/confirmation-keys';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { AuthenticationService } from '../users/authentication.service';
import { ChangeUserFullNameCommand } from '../users/change-user-full-name.command';
import { ChangeUserPasswordCommand } from '../users/change-user-password.command';
import { passwordPolicy } from '../shared/password-policy';
import { UserQueries } from '../users/user.queries';
import type { UserDocument } from '../users/user.documents';
import { EmailChangeChecks } from './email-change.checks';
import { confirmNewEmailMail } from './email-change.mails';
import { settingEntries } from './settings-changes';
import { SettingsWriter } from './settings-writer';
import { UpdateOwnSettingsCommand } from './update-own-settings.command';

/** Confirmation links work for a day (settings.CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS). */
export const EMAIL_CHANGE_LINK_VALIDITY_MS = 24 * 60 * 60 * 1000;

/**
 * json_change_settings for the caller. Zulip checks as it goes; here every check runs first
 * (values, then the current password, the new address and the new name), so a refused request
 * changes nothing. Then, in Zulip's order: the password, the change of address, the name, the settings.
 */
@CommandHandler(UpdateOwnSettingsCommand)
export class UpdateOwnSettingsHandler implements ICommandHandler<UpdateOwnSettingsCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly writer: SettingsWriter,
    private readonly users: UserQueries,
    private readonly authentication: AuthenticationService,
    private readonly emailChecks: EmailChangeChecks,
    private readonly mailer: Mailer,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly rateLimits: RateLimitStorePort,
  ) {}

  async execute({ context: { actor }, changes }: UpdateOwnSettingsCommand): Promise<Record<string, never>> {
    const user = await this.users.mustFindById(actor.realmId, actor.userId!);
    const settings = settingEntries(changes.settings);
    for (const { property, value } of settings) checkSettingValue(property, value);
    if (changes.newPassword !== undefined) await this.checkPasswordChange(actor, user, changes.oldPassword, changes.newPassword);
    const newEmail = changes.email === undefined ? undefined : pythonStrip(changes.email);
    const emailChanges = newEmail !== undefined && newEmail !== user.delivery_email;
    if (emailChanges) {
      await this.emailChecks.checkAllowed(actor, user.is_active);
      await this.emailChecks.check(actor.realmId, newEmail);
      await this.checkEmailChangeRate(user.user_id);
    }
    const nameChanges = changes.fullName !== undefined && changes.fullName !== user.full_name;
    if (nameChanges) checkFullName(changes.fullName!);

    const context = { actor };
    if (changes.newPassword !== undefined) await this.commands.execute(new ChangeUserPasswordCommand(context, user.user_id, changes.newPassword));
    let last: GlobalPosition | undefined;
    if (emailChanges) last = await this.requestEmailChange(actor, user, newEmail);
    if (nameChanges) await this.commands.execute(new ChangeUserFullNameCommand(context, user.user_id, changes.fullName!));
    const { position } = await this.writer.change(actor, user.user_id, settings, { editedBySelf: true });
    await this.projections.waitFor(position ?? last);
    return {};
  }

  /**
   * Zulip's `email_change_by_user` rate limit (2 an hour, 5 a day by default), counted after the
   * address is checked, as json_change_settings does: each rule has its own fixed window in the
   * rate-limit store. An unreachable store lets the request through, as every rate limit here.
   */
  private async checkEmailChangeRate(userId: number): Promise<void> {
    for (const rule of this.config.rateLimits.emailChange ?? []) {
      if (rule.requests <= 0) continue;
      let counted;
      try {
        counted = await this.rateLimits.hit(`email_change_by_user:${rule.windowSeconds}:${userId}`, rule.windowSeconds);
      } catch {
        continue;
      }
      if (counted.count > rule.requests) throw new EmailChangeRateLimitedError(Math.max(1, Math.ceil(counted.resetInMs / 1000)));
    }
  }

  /** "Wrong password!" unless `old_password` authenticates the account; then check_password_strength. */
  private async checkPasswordChange(actor: Actor, user: UserDocument, oldPassword: string | undefined, newPassword: string): Promise<void> {
    try {
      await this.authentication.authenticatePassword(actor.realmId, user.delivery_email, oldPassword ?? '');
    } catch (error) {
      if (error instanceof DomainError) throw new WrongPasswordError();
      throw error;
    }
    if (!isStrongEnoughPassword(newPassword, passwordPolicy(this.config).minLength)) throw new NewPasswordTooWeakError();
  }

  /**
   * do_start_email_change_process: the pending change (the key's digest only: the key is a secret),
   * then the confirmation mail to the new address, whose link carries the key. The mail is queued
   * after the change is recorded: a failed append sends no mail with a dead link.
   */
  private async requestEmailChange(actor: Actor, user: UserDocument, newEmail: string): Promise<GlobalPosition | undefined> {
    const now = this.clock.now();
    const key = newConfirmationKey(this.random);
    const { newEvents, position } = await this.runner.run(userSettingsDecider, userSettingsStream(user.user_id), {
      type: 'RequestEmailChange',
      data: {
        realmId: actor.realmId, userId: user.user_id, actorId: actor.userId, now: now.toISOString(),
        currentEmail: user.delivery_email, newEmail, keyDigest: confirmationKeyDigest(key), expiresAt: new Date(now.getTime() + EMAIL_CHANGE_LINK_VALIDITY_MS).toISOString(),
      },
    });
    if (newEvents.length > 0) {
      const realmUrl = this.config.externalUrl;
      await this.mailer.send(confirmNewEmailMail({ realmUrl, oldEmail: user.delivery_email, newEmail, activateUrl: `${realmUrl}/accounts/confirm_new_email/${key}/` }));
    }
    return position;
  }
}