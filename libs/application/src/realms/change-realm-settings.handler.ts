import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { realmDecider, realmStream } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { SystemGroupIds } from '../channels/system-group-ids';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChangeRealmSettingsCommand, type ChangeRealmSettingsResult } from './change-realm-settings.command';
import { RealmQueries } from './realm.queries';

@CommandHandler(ChangeRealmSettingsCommand)
export class ChangeRealmSettingsHandler implements ICommandHandler<ChangeRealmSettingsCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
    private readonly channels: ChannelQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, settings }: ChangeRealmSettingsCommand): Promise<ChangeRealmSettingsResult> {
    const realm = await this.realms.mustFindById(actor.realmId);
    const systemGroupIds = await this.groupIds.forRealm(actor.realmId);
    const { moderationRequestChannelId, ...rest } = settings;
    const moderationRequestChannel = moderationRequestChannelId === undefined ? undefined : await this.moderationChannel(actor.realmId, moderationRequestChannelId);
    const { newEvents, position } = await this.runner.run(realmDecider, realmStream(actor.realmId), {
      type: 'ChangeRealmSettings',
      data: {
        realmId: actor.realmId,
        actorId: actor.userId,
        now: this.clock.now().toISOString(),
        registered: { name: realm.name, description: realm.description },
        systemGroupIds,
        ...rest,
        ...(moderationRequestChannel ? { moderationRequestChannel } : {}),
      },
    });
    await this.projections.waitFor(position);
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
