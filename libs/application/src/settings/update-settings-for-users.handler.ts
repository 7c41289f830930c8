import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  InvalidUserGroupIdError,
  InvalidUserIdError,
  MustBeAdministratorError,
  type SystemGroupName,
  TargetUsersRequiredError,
  checkSettableForOthers,
  checkSettingValue,
  isAdministrator,
  resolveTargetUsers,
} from '@app/domain';
import type { GlobalPosition } from '../ports/event-store.port';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SystemGroupIds } from '../shared/system-group-ids';
import { UserQueries } from '../users/user.queries';
import { settingEntries } from './settings-changes';
import { SettingsWriter } from './settings-writer';
import { UpdateSettingsForUsersCommand } from './update-settings-for-users.command';

/**
 * json_change_settings with `target_users`: administrators only; no account fields, time zone or
 * security-sensitive settings; then each target's settings on their own stream, leaving alone
 * (with `skip_if_already_edited`) a setting the user changed themselves. Unlike Zulip, the values
 * are checked here too (language, sound, batching period), so a bad value changes nothing.
 */
@CommandHandler(UpdateSettingsForUsersCommand)
export class UpdateSettingsForUsersHandler implements ICommandHandler<UpdateSettingsForUsersCommand> {
  constructor(
    private readonly projections: ProjectionWaiter,
    private readonly writer: SettingsWriter,
    private readonly users: UserQueries,
    private readonly groupIds: SystemGroupIds,
  ) {}

  async execute({ context: { actor }, targets, changes }: UpdateSettingsForUsersCommand): Promise<Record<string, never>> {
    if (!isAdministrator(actor)) throw new MustBeAdministratorError();
    if (changes.email !== undefined) checkSettableForOthers('email');
    if (changes.newPassword !== undefined) checkSettableForOthers('new_password');
    if (changes.fullName !== undefined) checkSettableForOthers('full_name');
    const settings = settingEntries(changes.settings);
    for (const { property } of settings) checkSettableForOthers(property);
    for (const { property, value } of settings) checkSettingValue(property, value);
    if (targets.userIds.length === 0 && targets.groupIds.length === 0) throw new TargetUsersRequiredError();

    const accounts = await this.users.list(actor.realmId);
    const known = new Set(accounts.map((u) => u.user_id));
    for (const userId of targets.userIds) if (!known.has(userId)) throw new InvalidUserIdError(userId);
    const groupNames = new Map(Object.entries(await this.groupIds.forRealm(actor.realmId)).map(([name, id]) => [id, name as SystemGroupName]));
    const groups = targets.groupIds.map((id) => {
      const name = groupNames.get(id);
      if (name === undefined) throw new InvalidUserGroupIdError(id);
      return name;
    });
    const targetIds = resolveTargetUsers(
      accounts.map((u) => ({ userId: u.user_id, role: u.role_name, isActive: u.is_active, isBot: u.is_bot })),
      targets.userIds,
      groups,
    );

    let last: GlobalPosition | undefined;
    for (const userId of targetIds) {
      const { position } = await this.writer.change(actor, userId, settings, { editedBySelf: false, skipIfAlreadyEdited: targets.skipIfAlreadyEdited });
      if (position !== undefined) last = position;
    }
    await this.projections.waitFor(last);
    return {};
  }
}
