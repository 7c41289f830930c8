import { Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ChangeRealmSettingsCommand } from '@app/application';
import { REALM_GROUP_SETTING_NAMES, type GroupSettingChangeRequest, type RealmGroupSettingName } from '@app/domain';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdateRealmDto } from './realm.dto';

/** ≈ zerver/views/realm.py update_realm (GET /user_groups belongs to the user-groups area). */
@Controller('api/v1')
export class RealmController {
  constructor(
    private readonly commands: CommandBus,
  ) {}

  @Patch('realm')
  @RequireRole('administrator')
  @Summary('Change organization settings (administrators; the owner-only ones, such as message_retention_days, owners); answers the settings that changed.')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateRealmDto) {
    const groups: Partial<Record<RealmGroupSettingName, GroupSettingChangeRequest>> = {};
    for (const setting of REALM_GROUP_SETTING_NAMES) if (params[setting] !== undefined) groups[setting] = params[setting];
    const { changed, changedGroups = [] } = await this.commands.execute(
      new ChangeRealmSettingsCommand({ actor }, {
        name: params.name,
        description: params.description,
        messaging: {
          allow_message_editing: params.allow_message_editing,
          message_content_edit_limit_seconds: params.message_content_edit_limit_seconds,
          message_content_delete_limit_seconds: params.message_content_delete_limit_seconds,
          move_messages_within_stream_limit_seconds: params.move_messages_within_stream_limit_seconds,
          move_messages_between_streams_limit_seconds: params.move_messages_between_streams_limit_seconds,
          topics_policy: params.topics_policy,
          enable_read_receipts: params.enable_read_receipts,
          email_changes_disabled: params.email_changes_disabled,
          message_retention_days: params.message_retention_days,
        },
        groups,
        moderationRequestChannelId: params.moderation_request_channel_id,
      }),
    );
    // update_realm's data: "updated" for the free-text strings, the new value otherwise; group settings by id.
    const data: Record<string, unknown> = {};
    for (const { property, value } of changed) data[property] = property === 'name' || property === 'description' ? 'updated' : value;
    for (const { setting, groupId } of changedGroups) data[setting] = groupId;
    return data;
  }
}
