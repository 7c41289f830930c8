import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SystemGroupIds } from '../shared/system-group-ids';
import { DeciderCommands } from '../shared/decider-command-handler';
import { realmHandler } from './realm.decider-handler';
import { ChangeRealmSettingsCommand, type ChangeRealmSettingsResult } from './change-realm-settings.command';
import { RealmChannels } from './realm-channels';
import { RealmQueries } from './realm.queries';

@CommandHandler(ChangeRealmSettingsCommand)
export class ChangeRealmSettingsHandler implements ICommandHandler<ChangeRealmSettingsCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
    private readonly channels: RealmChannels,
  ) {}

  async execute({ context: { actor }, settings }: ChangeRealmSettingsCommand): Promise<ChangeRealmSettingsResult> {
    const realm = await this.realms.mustFindById(actor.realmId);
    const systemGroupIds = await this.groupIds.forRealm(actor.realmId);
    const { moderationRequestChannelId, ...rest } = settings;
    const moderationRequestChannel = moderationRequestChannelId === undefined ? undefined : await this.moderationChannel(actor.realmId, moderationRequestChannelId);
    const { newEvents } = await realmHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangeRealmSettings',
      data: {
        realmId,
        actorId: actor.userId,
        actorRole: actor.role,
        now,
        registered: { name: realm.name, description: realm.description },
        systemGroupIds,
        ...rest,
        ...(moderationRequestChannel ? { moderationRequestChannel } : {}),
      },
    }));
    return {
      changed: newEvents.flatMap((e) => (e.type === 'RealmPropertyChanged' ? [{ property: e.data.property, value: e.data.newValue }] : [])),
      changedGroups: newEvents.flatMap((e) =>
        e.type === 'RealmGroupSettingChanged' ? [{ setting: e.data.setting, groupId: systemGroupIds[e.data.newValue] }] : [],
      ),
    };
  }

  /** The channel a moderation_request_channel_id names, as the decider checks it (archived: none). */
  private async moderationChannel(realmId: number, requestedId: number) {
    if (requestedId < 0) return { requestedId, channel: null };
    const channel = await this.channels.byId(realmId, requestedId);
    return { requestedId, channel: channel && !channel.is_archived ? { inviteOnly: channel.invite_only } : null };
  }
}
