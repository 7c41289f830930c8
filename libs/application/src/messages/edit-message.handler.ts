import { createHash } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type EditMessage, messageDecider, type MessageContentEdited, type MessagesMoved, messageStream, moveNotices } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { EditMessageCommand, type EditMessageResult } from './edit-message.command';
import { EditMessageFactsLoader } from './edit-message.facts-loader';
import { MessageAccess } from './message-access';
import { MessageExtensions } from './message-extensions';
import { UpdateMessageFlagsCommand } from './message-flags.command';
import { NotificationBot } from './notification-bot';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * PATCH /messages/{id}: access the message, read the facts the rules need, and append the
 * decided events to `message-<id>` in ONE append at the revision read (a whole-topic move is one
 * `MessagesMoved` naming every id). The stream's current content is hashed for
 * prev_content_sha256 from the folded state, so a concurrent edit makes the retry compare against
 * the newer content.
 */
@CommandHandler(EditMessageCommand)
export class EditMessageHandler implements ICommandHandler<EditMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly access: MessageAccess,
    private readonly facts: EditMessageFactsLoader,
    private readonly notices: NotificationBot,
    private readonly commands: CommandBus,
    private readonly extensions: MessageExtensions,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context, messageId, request }: EditMessageCommand): Promise<EditMessageResult> {
    const accessed = await this.access.access(context.actor, messageId);
    const now = this.clock.now().toISOString();
    const facts = await this.facts.forEdit(accessed, request, now);
    let decided: EditMessage['data'] | undefined;
    const { newEvents, position } = await this.runner.run(
      messageDecider,
      messageStream(messageId),
      (state): EditMessage => ({ type: 'EditMessage', data: (decided = { ...facts, currentContentSha256: sha256(state.content) }) }),
      { actorId: accessed.user.user_id },
    );
    // Notification Bot's notices, after the move (Zulip posts them in the same transaction).
    const moved = newEvents.find((e): e is MessagesMoved => e.type === 'MessagesMoved');
    const contentEdited = newEvents.some((e) => e.type === 'MessageContentEdited');
    const noticed = moved && decided ? await this.notices.post(facts.realmId, accessed.user.user_id, moveNotices(moved.data, decided, contentEdited), now) : undefined;
    await this.projections.waitFor(noticed?.position ?? position);
    // mark_as_read_for_acting_user: the mover has read the notices (where they have a row for them).
    if (noticed && noticed.messageIds.length > 0) await this.commands.execute(new UpdateMessageFlagsCommand(context, { messages: noticed.messageIds, op: 'add', flag: 'read' }));
    // What the extensions answer about the content change (uploads: detached_uploads).
    const edited = newEvents.find((e): e is MessageContentEdited => e.type === 'MessageContentEdited');
    return this.extensions.editAnswer(
      edited ? { actorId: edited.data.editorId, messageId: edited.data.messageId, prevContent: edited.data.prevContent, content: edited.data.content } : null,
    );
  }
}
