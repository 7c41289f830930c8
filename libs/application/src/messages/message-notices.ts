import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type MoveNotice, operatorActor } from '@app/domain';
import type { GlobalPosition } from '../ports/event-store.port';
import { NOTIFICATION_BOT_FULL_NAME, NOTIFICATION_BOT_SHORT_NAME } from '../scheduled-messages/notification-bot';
import { CreateBotCommand } from '../users/create-bot.command';
import type { UserDocument } from '../users/user.documents';
import { UserQueries } from '../users/user.queries';
import { MessageSender } from './message-sender';

/**
 * internal_send_stream_message from Notification Bot, for the notices of topic moves. Zulip's
 * Notification Bot is a cross-realm system bot that may post in any channel; here it is the
 * organization's system bot "Notification Bot", owned by nobody (shared with scheduled-message
 * failure notices, created on first use), and its notices skip the channel posting checks as
 * Zulip's system bots do.
 */
@Injectable()
export class MessageNotices {
  constructor(
    private readonly commands: CommandBus,
    private readonly users: UserQueries,
    private readonly sender: MessageSender,
  ) {}

  /** Posts the notices in order; their ids and the position of the last one (for read-your-writes). */
  async post(realmId: number, _actingUserId: number, notices: MoveNotice[], now: string): Promise<{ messageIds: number[]; position: GlobalPosition | undefined }> {
    if (notices.length === 0) return { messageIds: [], position: undefined };
    const bot = await this.bot(realmId);
    const messageIds: number[] = [];
    let last: GlobalPosition | undefined;
    for (const notice of notices) {
      const { messageId, position } = await this.sender.send(
        bot,
        { type: 'stream', to: String(notice.streamId), topic: notice.topic, content: notice.content, client: 'Internal', readBySender: true },
        now,
        { systemBot: true },
      );
      messageIds.push(messageId);
      last = position ?? last;
    }
    return { messageIds, position: last };
  }

  /** internal_send_private_message from Notification Bot, one message to each user; the position of the last one. */
  async postDirect(realmId: number, notices: { userId: number; content: string }[], now: string): Promise<GlobalPosition | undefined> {
    if (notices.length === 0) return undefined;
    const bot = await this.bot(realmId);
    let last: GlobalPosition | undefined;
    for (const notice of notices) {
      const { position } = await this.sender.send(
        bot,
        { type: 'private', to: JSON.stringify([notice.userId]), content: notice.content, client: 'Internal', readBySender: true },
        now,
        { systemBot: true },
      );
      last = position ?? last;
    }
    return last;
  }

  private async find(realmId: number): Promise<UserDocument | null> {
    const bots = await this.users.listBots(realmId);
    return bots.find((u) => u.email.startsWith(`${NOTIFICATION_BOT_SHORT_NAME}-bot@`)) ?? null;
  }

  private async bot(realmId: number): Promise<UserDocument> {
    const existing = await this.find(realmId);
    if (existing) return existing;
    try {
      await this.commands.execute(new CreateBotCommand({ actor: operatorActor(realmId) }, { fullName: NOTIFICATION_BOT_FULL_NAME, shortName: NOTIFICATION_BOT_SHORT_NAME, system: true }));
    } catch (error) {
      const created = await this.find(realmId);
      if (created) return created;
      throw error;
    }
    const created = await this.find(realmId);
    if (!created) throw new Error('Notification Bot was not created');
    return created;
  }
}
