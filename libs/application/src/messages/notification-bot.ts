import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type MoveNotice, operatorActor } from '@app/domain';
import type { GlobalPosition } from '../ports/event-store.port';
import { CreateBotCommand } from '../users/create-bot.command';
import type { UserDocument } from '../users/user.documents';
import { UserQueries } from '../users/user.queries';
import { MessageSender } from './message-sender';
import { SendMessageCommand } from './send-message.command';

/** Zulip's NOTIFICATION_BOT, here a system bot of each organization: `notification-bot@<organization host>`. */
export const NOTIFICATION_BOT_SHORT_NAME = 'notification';
export const NOTIFICATION_BOT_FULL_NAME = 'Notification Bot';

/**
 * Notification Bot, the one front door for what the server posts itself: topic-move and report
 * notices (internal_send_stream_message), group-membership and report confirmations
 * (internal_send_private_message), and scheduled-message failure notices. Zulip's Notification
 * Bot is a cross-realm system bot that may post in any channel; here each organization gets one
 * on first use: a bot owned by nobody (isSystemBot), listed in `cross_realm_bots` and not among
 * the organization's users, whose notices skip the channel posting checks as Zulip's system bots do.
 */
@Injectable()
export class NotificationBot {
  constructor(
    private readonly commands: CommandBus,
    private readonly users: UserQueries,
    private readonly sender: MessageSender,
  ) {}

  /** Posts channel notices in order; their ids and the position of the last one (for read-your-writes). */
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

  /** internal_send_private_message, one message to each user; the position of the last one. */
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

  /** A direct message sent as POST /messages sends it (its checks, waiting for the read models); the message id. */
  async sendDirect(realmId: number, recipientId: number, content: string): Promise<number> {
    const bot = await this.bot(realmId);
    const actor = { realmId, userId: bot.user_id, role: 'member' as const, isBot: true };
    const { id } = await this.commands.execute(
      new SendMessageCommand({ actor }, { type: 'direct', to: JSON.stringify([recipientId]), content, client: 'Internal', readBySender: true }),
    );
    return id;
  }

  private async find(realmId: number): Promise<UserDocument | null> {
    const bots = await this.users.listBots(realmId);
    return bots.find((u) => u.email.startsWith(`${NOTIFICATION_BOT_SHORT_NAME}-bot@`)) ?? null;
  }

  /** One creation at a time per organization in this process (concurrent callers share it). */
  private readonly creating = new Map<number, Promise<UserDocument>>();

  private async bot(realmId: number): Promise<UserDocument> {
    const existing = await this.find(realmId);
    if (existing) return existing;
    let pending = this.creating.get(realmId);
    if (!pending) {
      pending = this.create(realmId).finally(() => this.creating.delete(realmId));
      this.creating.set(realmId, pending);
    }
    return pending;
  }

  private async create(realmId: number): Promise<UserDocument> {
    try {
      await this.commands.execute(
        new CreateBotCommand({ actor: operatorActor(realmId) }, { fullName: NOTIFICATION_BOT_FULL_NAME, shortName: NOTIFICATION_BOT_SHORT_NAME, system: true }),
      );
    } catch (error) {
      // Created meanwhile by another process: wait for it to show in the read model.
      for (let attempt = 0; attempt < 50; attempt++) {
        const created = await this.find(realmId);
        if (created) return created;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw error;
    }
    const created = await this.find(realmId);
    if (!created) throw new Error('Notification Bot was not created');
    return created;
  }
}
