import { Command } from '@nestjs/cqrs';
import type {
  GroupSettingChangeRequest,
  RealmGroupSettingName,
  RealmMessagingSettingsInput,
  RealmProperty,
  RealmPropertyValue,
} from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type ChangeRealmSettingsResult = {
  /** The settings whose value changed, with the new value (Zulip's PATCH /realm answers `{name: "updated"}` for strings). */
  changed: { property: RealmProperty; value: RealmPropertyValue }[];
  /** The group settings that changed, with the new group's id (update_realm's `data[setting_name] = new_setting_value`). */
  changedGroups?: { setting: RealmGroupSettingName; groupId: number }[];
};

/** Zulip's `PATCH /realm` (update_realm): name, description, and the settings messaging needs. */
export class ChangeRealmSettingsCommand extends Command<ChangeRealmSettingsResult> {
  constructor(
    readonly context: CommandContext,
    readonly settings: {
      name?: string;
      description?: string;
      messaging?: RealmMessagingSettingsInput;
      groups?: Partial<Record<RealmGroupSettingName, GroupSettingChangeRequest>>;
      /** moderation_request_channel_id: a channel id, or -1 (any negative) to disable message reporting. */
      moderationRequestChannelId?: number;
    },
  ) {
    super();
  }
}
