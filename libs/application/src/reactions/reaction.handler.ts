import { Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Actor, invalidMessage, type ReactionEmojiFacts, type ReactionsCommand, reactionsDecider, reactionsStream, type TopicParticipation } from '@app/domain';
import { MessageAccess } from '../messages/message-access';
import { TopicParticipationLoader } from '../messages/topic-participation.loader';
import { normalizeReactionType } from '../server/version-fields';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { CustomEmojiLookup } from '../user-status/custom-emoji.lookup';
import { AddReactionCommand, RemoveReactionCommand } from './reaction.command';

/** The reactions of one message, on its stream (reactions.streams.ts). */
const reactions = DeciderCommandHandler({ ...reactionsDecider, mapToStreamId: ({ data }) => reactionsStream(data.messageId) });

/**
 * Both directions: access_message(is_modifying_message=True) on the read models ("Invalid
 * message(s)" for a message the user may not read or in an archived channel), the custom emoji the
 * request names, then the decider on the message's stream (reactions.streams.ts). Adding also
 * reads what the automatic topic follow / unmute on participation needs (TopicParticipationLoader);
 * removing a reaction changes no topic policy, as in Zulip.
 */
@Injectable()
abstract class ReactionHandler {
  // The two handlers inherit this constructor and its injection metadata.
  constructor(
    private readonly commands: DeciderCommands,
    private readonly access: MessageAccess,
    private readonly customEmoji: CustomEmojiLookup,
    private readonly participation: TopicParticipationLoader,
  ) {}

  protected async run(
    actor: Actor,
    messageId: number,
    emoji: { emojiName?: string; emojiCode?: string },
    participates: boolean,
    command: (
      meta: { realmId: number; messageId: number; userId: number; now: string; emoji: ReactionEmojiFacts },
      hasRow: boolean,
      participation: TopicParticipation | null,
    ) => ReactionsCommand,
  ): Promise<void> {
    const accessed = await this.access.access(actor, messageId);
    const { user, channel } = accessed;
    if (channel?.is_archived) throw invalidMessage();
    const realmId = user.realm_id;
    const [customByName, customById, participation] = await Promise.all([
      emoji.emojiName ? this.customEmoji.activeByName(realmId, emoji.emojiName) : null,
      emoji.emojiCode ? this.customEmoji.byId(realmId, emoji.emojiCode) : null,
      participates ? this.participation.load(accessed) : null,
    ]);
    const meta = (now: string) => ({ realmId, messageId, userId: user.user_id, now, emoji: { customByName, customById } });
    await reactions(this.commands, actor, ({ now }) => command(meta(now), accessed.flags !== undefined, participation), { metadata: { actorId: user.user_id } });
  }
}

/** check_add_reaction. */
@CommandHandler(AddReactionCommand)
export class AddReactionHandler extends ReactionHandler implements ICommandHandler<AddReactionCommand> {
  execute({ context: { actor }, messageId, request }: AddReactionCommand): Promise<void> {
    return this.run(actor, messageId, request, true, (meta, hasRow, participation) => ({
      type: 'AddReaction',
      data: {
        ...meta,
        emojiName: request.emojiName,
        emojiCode: request.emojiCode ?? null,
        reactionType: request.reactionType === undefined ? null : normalizeReactionType(request.reactionType),
        hasRow,
        participation,
      },
    }));
  }
}

/** remove_reaction. */
@CommandHandler(RemoveReactionCommand)
export class RemoveReactionHandler extends ReactionHandler implements ICommandHandler<RemoveReactionCommand> {
  execute({ context: { actor }, messageId, request }: RemoveReactionCommand): Promise<void> {
    return this.run(actor, messageId, request, false, (meta) => ({
      type: 'RemoveReaction',
      data: {
        ...meta,
        emojiName: request.emojiName ?? null,
        emojiCode: request.emojiCode ?? null,
        reactionType: normalizeReactionType(request.reactionType ?? 'unicode_emoji'),
      },
    }));
  }
}
