import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type Actor,
  type StatusEmojiFacts,
  type UserStatusInput,
  checkUpdateUserStatus,
  isAdministrator,
  userStatusDecider,
  userStatusStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { normalizeReactionType } from '../server/version-fields';
import { SettingsWriter } from '../settings/settings-writer';
import { UserQueries } from '../users/user.queries';
import { CustomEmojiLookup } from './custom-emoji.lookup';
import { UpdateUserStatusCommand } from './update-user-status.command';

/**
 * do_update_user_status. The request is checked whole first (the target, the text, the emoji), so
 * a refused one changes nothing; then `away` (the presence_enabled setting, as the user's own
 * change), then the status on `user_status-<userId>`.
 */
@CommandHandler(UpdateUserStatusCommand)
export class UpdateUserStatusHandler implements ICommandHandler<UpdateUserStatusCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    private readonly customEmoji: CustomEmojiLookup,
    private readonly settings: SettingsWriter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, input: raw, targetUserId }: UpdateUserStatusCommand): Promise<Record<string, never>> {
    const input: UserStatusInput = { ...raw, reactionType: raw.reactionType === undefined ? undefined : normalizeReactionType(raw.reactionType) };
    const userId = targetUserId ?? actor.userId!;
    const target = targetUserId === undefined ? undefined : await this.targetFacts(actor, targetUserId);
    const emoji = await this.emojiFacts(actor.realmId, input);
    const command = {
      type: 'UpdateUserStatus' as const,
      data: { realmId: actor.realmId, userId, actorId: actor.userId, actorIsAdministrator: isAdministrator(actor), now: this.clock.now().toISOString(), input, emoji, target },
    };
    // Everything the decider will check, before `away` changes a setting.
    userStatusDecider.decide(command, userStatusDecider.initialState());
    if (input.away !== undefined && targetUserId === undefined) {
      const { position } = await this.settings.change(actor, userId, [{ property: 'presence_enabled', value: !input.away }], { editedBySelf: true });
      await this.projections.waitFor(position);
    }
    const { position } = await this.runner.run(userStatusDecider, userStatusStream(userId), command);
    await this.projections.waitFor(position);
    return {};
  }

  private async targetFacts(actor: Actor, userId: number) {
    const user = await this.users.byId(actor.realmId, userId);
    return user && { isBot: user.is_bot, isActive: user.is_active, botOwnerId: user.bot_owner_id };
  }

  /** The custom emoji the request may name: by name (when the code or type is left out) and by id. */
  private async emojiFacts(realmId: number, input: UserStatusInput): Promise<StatusEmojiFacts> {
    const name = input.emojiName;
    if (!name) return { customByName: null, customById: null };
    const customByName = input.emojiCode === undefined || input.reactionType === undefined ? await this.customEmoji.activeByName(realmId, name) : null;
    const code = input.emojiCode ?? customByName?.id;
    const customById = code === undefined ? null : await this.customEmoji.byId(realmId, code);
    return { customByName, customById };
  }
}
