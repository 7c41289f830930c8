import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { operatorActor } from '@app/domain';
import { CreateBotCommand } from '../users/create-bot.command';
import { UserQueries } from '../users/user.queries';
import { SendMessageCommand } from '../messages/send-message.command';

/** Zulip's NOTIFICATION_BOT, here a system bot of each organization: `notification-bot@<organization host>`. */
export const NOTIFICATION_BOT_SHORT_NAME = 'notification';
export const NOTIFICATION_BOT_FULL_NAME = 'Notification Bot';

/**
 * internal_send_private_message from Notification Bot. Zulip's Notification Bot is a cross-realm
 * system bot; here each organization gets one on first use: a bot owned by nobody (isSystemBot),
 * listed in `cross_realm_bots` and not among the organization's users.
 */
@Injectable()
export class NotificationBot {
  constructor(
    private readonly commands: CommandBus,
    private readonly users: UserQueries,
  ) {}

  async sendDirect(realmId: number, recipientId: number, content: string): Promise<number> {
    const botId = await this.ensureBot(realmId);
    const actor = { realmId, userId: botId, role: 'member' as const, isBot: true };
    const { id } = await this.commands.execute(
      new SendMessageCommand({ actor }, { type: 'direct', to: JSON.stringify([recipientId]), content, client: 'Internal', readBySender: true }),
    );
    return id;
  }

  private async find(realmId: number): Promise<number | null> {
    const bots = await this.users.listBots(realmId);
    const bot = bots.find((u) => u.email.startsWith(`${NOTIFICATION_BOT_SHORT_NAME}-bot@`));
    return bot ? bot.user_id : null;
  }

  /** One creation at a time per organization in this process (concurrent failures share it). */
  private readonly creating = new Map<number, Promise<number>>();

  private async ensureBot(realmId: number): Promise<number> {
    const existing = await this.find(realmId);
    if (existing !== null) return existing;
    let pending = this.creating.get(realmId);
    if (!pending) {
      pending = this.create(realmId).finally(() => this.creating.delete(realmId));
      this.creating.set(realmId, pending);
    }
    return pending;
  }

  private async create(realmId: number): Promise<number> {
    try {
      const { userId } = await this.commands.execute(
        new CreateBotCommand({ actor: operatorActor(realmId) }, { fullName: NOTIFICATION_BOT_FULL_NAME, shortName: NOTIFICATION_BOT_SHORT_NAME, system: true }),
      );
      return userId;
    } catch (error) {
      // Created meanwhile by another process: wait for it to show in the read model.
      for (let attempt = 0; attempt < 50; attempt++) {
        const created = await this.find(realmId);
        if (created !== null) return created;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw error;
    }
  }
}
