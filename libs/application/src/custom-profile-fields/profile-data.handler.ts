import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  checkProfileData,
  customProfileValuesDecider,
  customProfileValuesStream,
  FIELD_TYPES,
  isRenderableFieldType,
  type ProfileUserFacts,
  userIdsIn,
} from '@app/domain';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { UserQueries } from '../users/user.queries';
import { CustomProfileFieldQueries } from './custom-profile-field.queries';
import { RemoveProfileDataCommand, UpdateProfileDataCommand } from './profile-data.command';

/** A user's profile field values: one append on `custom_profile_values-<userId>`. */
const profileValues = DeciderCommandHandler({ ...customProfileValuesDecider, mapToStreamId: ({ data }) => customProfileValuesStream(data.userId) });

@CommandHandler(UpdateProfileDataCommand)
export class UpdateProfileDataHandler implements ICommandHandler<UpdateProfileDataCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly fields: CustomProfileFieldQueries,
    private readonly users: UserQueries,
    private readonly renderer: ChannelDescriptionRenderer,
  ) {}

  /** The accounts the Users fields of the request name, as facts. */
  private async userFacts(realmId: number, ids: number[]): Promise<ProfileUserFacts> {
    const facts: ProfileUserFacts = {};
    for (const id of new Set(ids)) {
      const user = await this.users.byId(realmId, id);
      if (user) facts[id] = { isActive: user.is_active, isBot: user.is_bot };
    }
    return facts;
  }

  async execute({ context: { actor }, userId, data }: UpdateProfileDataCommand): Promise<void> {
    const [fields, current] = await Promise.all([this.fields.facts(actor.realmId), this.fields.currentValues(actor.realmId, userId)]);
    const userValues = data.filter((item) => fields[item.id]?.fieldType === FIELD_TYPES.USER).flatMap((item) => userIdsIn(item.value));
    const base = {
      realmId: actor.realmId, actor, now: this.clock.now().toISOString(), userId, fields, current,
      items: data.map((item) => ({ fieldId: item.id, value: item.value })), users: await this.userFacts(actor.realmId, userValues),
    };
    // Check everything before rendering anything; the decider checks again against the same facts.
    const values = checkProfileData({ ...base, rendered: {} });
    const rendered: Record<number, string | null> = {};
    for (const { fieldId, value } of values) {
      rendered[fieldId] = isRenderableFieldType(fields[fieldId].fieldType)
        ? await this.renderer.render(value, { realmId: actor.realmId, actorId: actor.userId })
        : null;
    }
    // The values were checked at `base.now`: the command carries that time.
    await profileValues(this.commands, actor, () => ({ type: 'UpdateProfileData', data: { ...base, rendered } }));
  }
}

@CommandHandler(RemoveProfileDataCommand)
export class RemoveProfileDataHandler implements ICommandHandler<RemoveProfileDataCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly fields: CustomProfileFieldQueries,
  ) {}

  async execute({ context: { actor }, userId, fieldIds }: RemoveProfileDataCommand): Promise<void> {
    const [fields, current] = await Promise.all([this.fields.facts(actor.realmId), this.fields.currentValues(actor.realmId, userId)]);
    await profileValues(this.commands, actor, (meta) => ({ type: 'RemoveProfileData', data: { ...meta, userId, fields, current, fieldIds } }));
  }
}
